import { Deployment } from '@internal/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { TaskDefinitionDiff } from './TaskDefinitionDiff';

/** What a deployment changed: its task definition against the release it replaced. */
export const ReleaseChanges = ({ deployment }: { deployment: Deployment }) => {
  const { deployedTaskDefinition: deployed, previousTaskDefinition: previous } =
    deployment.data;
  let body;
  if (!deployed) {
    body = (
      <Typography variant="body2">
        No task definition was registered for this deployment.
      </Typography>
    );
  } else if (!previous) {
    body = (
      <Typography variant="body2">
        First release of the service: there is no earlier task definition to
        compare with.
      </Typography>
    );
  } else {
    body = <TaskDefinitionDiff from={previous} to={deployed} />;
  }
  return (
    <Box marginBottom={2}>
      <Typography variant="subtitle2">
        Task definition
        {deployed && previous
          ? ` · revision ${previous.revision} → ${deployed.revision}`
          : ''}
      </Typography>
      {body}
    </Box>
  );
};
