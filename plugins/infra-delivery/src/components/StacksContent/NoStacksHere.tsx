import { Entity } from '@backstage/catalog-model';
import Box from '@material-ui/core/Box';
import { LinkButton } from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import { isStackEntity } from '../common/stackEntityRef';
import { useCreateStackPath } from '../common/useCreateStackPath';

/**
 * What the stacks table says without rows: the entity's stacks are gone from the service (a
 * stack's own entity outlives its deletion until the catalog's next refresh), or the drift
 * filter hides every one. Without a filter to blame, the stack template is offered where the app
 * has it.
 */
export const NoStacksHere = ({
  entity,
  filtered,
}: {
  entity: Entity;
  /** Whether the entity has stacks that the drift filter hides. */
  filtered: boolean;
}) => {
  const createStackPath = useCreateStackPath();
  let text = `None of the stacks ${entity.metadata.name} names is in the infrastructure service.`;
  if (filtered) {
    text = 'No stack matches the drift filter.';
  } else if (isStackEntity(entity)) {
    text =
      'This stack is no longer in the infrastructure service: it was deleted. Its catalog entry goes at the catalog’s next refresh.';
  }
  const offerTemplate = !filtered && createStackPath;
  return (
    <Box padding={2}>
      <Typography variant="body2" paragraph={Boolean(offerTemplate)}>
        {text}
      </Typography>
      {offerTemplate && (
        <LinkButton
          size="small"
          variant="outlined"
          color="primary"
          to={createStackPath()}
        >
          Create a stack from the template
        </LinkButton>
      )}
    </Box>
  );
};
