import { parseEntityRef } from '@backstage/catalog-model';
import {
  EntityDisplayName,
  humanizeEntityRef,
} from '@backstage/plugin-catalog-react';
import Tooltip from '@material-ui/core/Tooltip';
import Skeleton from '@material-ui/lab/Skeleton';
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

/**
 * Who an id (a member's or a service account's: who started a run, decided an approval, owns
 * a key) names, once the names are read: the person or account as `PersonName` shows them,
 * with the id on hover for those who look it up in the API. Never the bare id: a 36-character
 * UUID read as "started by 01a230b4-9f72-…" for a second on every run page (names load after
 * the run) and for good once an account was deleted. Until the names are read, a placeholder
 * the width of a name; an id no name is known for reads "an unknown account".
 */
export const PrincipalName = ({
  id,
  name,
  loaded,
  inText,
}: {
  id: string;
  /** The id's name, once known. */
  name?: string;
  /** Whether the names are read: an id still unnamed then is not in the organization. */
  loaded: boolean;
  /** Inside running text: the link is underlined, "an unknown account" in lower case. */
  inText?: boolean;
}) => {
  if (!name && !loaded) {
    return (
      <Skeleton
        component="span"
        variant="text"
        width="6em"
        aria-label="Loading the name"
        style={{ display: 'inline-block' }}
      />
    );
  }
  return (
    <Tooltip title={`ID ${id}`}>
      <span>
        {name ? (
          <PersonName name={name} inText={inText} />
        ) : (
          `${inText ? 'an' : 'An'} unknown account`
        )}
      </span>
    </Tooltip>
  );
};
