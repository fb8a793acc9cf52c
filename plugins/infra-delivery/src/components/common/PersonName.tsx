import { parseEntityRef } from '@backstage/catalog-model';
import {
  EntityDisplayName,
  humanizeEntityRef,
} from '@backstage/plugin-catalog-react';
import { MaybeLink } from './MaybeLink';
import { useEntityPageLink } from './useEntityTabLink';

/** The catalog user a name is, when it is a user's entity ref (`user:default/jane.doe`). */
function userRefOf(name: string) {
  if (!name.startsWith('user:')) {
    return undefined;
  }
  try {
    return parseEntityRef(name);
  } catch {
    return undefined;
  }
}

/**
 * Who someone is in plain text (a label, a message): a portal user's entity ref without its
 * kind and default namespace (`user:default/jane.doe` → `jane.doe`), anything else as it is.
 */
export function personText(name: string): string {
  const ref = userRefOf(name);
  return ref ? humanizeEntityRef(ref, { defaultKind: 'user' }) : name;
}

/**
 * Who a member or a run's starter is. A portal user's membership is named by their catalog
 * entity ref: that reads as the user's display name, linked to their page; an email or a
 * service account's name reads as it is.
 */
export const PersonName = ({
  name,
  inText,
}: {
  name: string;
  /** Inside running text: the link is underlined. */
  inText?: boolean;
}) => {
  const pageLink = useEntityPageLink();
  const ref = userRefOf(name);
  if (!ref) {
    return <>{name}</>;
  }
  return (
    <MaybeLink to={pageLink(ref)} inText={inText}>
      <EntityDisplayName entityRef={ref} hideIcon disableTooltip />
    </MaybeLink>
  );
};
