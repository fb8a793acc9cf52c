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
}: {
  stackId: string;
  name: string;
}) => {
  const tabLink = useEntityTabLink();
  return (
    <MaybeLink to={tabLink(stackEntityRef(stackId), 'stacks')}>
      {name}
    </MaybeLink>
  );
};
