import { MaybeLink } from './MaybeLink';
import { stackEntityRef } from './stackEntityRef';
import { useEntityTabLink } from './useEntityTabLink';

/**
 * A stack's name, linked to the Stacks tab of its catalog entity (the catalog module's
 * `stack-<id>` Resource) where the app has entity pages. Underlined on hover, as the plugin's
 * other links: a stack's name stands as a label (a cell, a run's facts), not inside a sentence.
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
