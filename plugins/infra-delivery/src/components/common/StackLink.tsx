import { MaybeLink } from './MaybeLink';
import { stackEntityRef } from './stackEntityRef';
import { useEntityTabLink } from './useEntityTabLink';

/**
 * A stack's name, linked to the Stacks tab of its catalog entity (the catalog module's
 * `stack-<id>` Resource) where the app has entity pages.
 */
export const StackLink = ({
  stackId,
  name,
  inText,
}: {
  stackId: string;
  name: string;
  /** Inside running text: underlined. */
  inText?: boolean;
}) => {
  const tabLink = useEntityTabLink();
  return (
    <MaybeLink to={tabLink(stackEntityRef(stackId), 'stacks')} inText={inText}>
      {name}
    </MaybeLink>
  );
};
