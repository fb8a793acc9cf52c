import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { taskDefinitionName } from '../common/shortArns';
import { TaskDefinitionDiff } from './TaskDefinitionDiff';

/**
 * What a deployment changed: its task definition against the release it replaced. The
 * service records that release when the cloud reports it (ECS does); otherwise the release of
 * the previous successful deployment in the history stands in for it.
 */
export const ReleaseChanges = ({
  deployment,
  previousSuccessful,
}: {
  deployment: Deployment;
  previousSuccessful?: Deployment;
}) => {
  const deployed = deployment.data.deployedTaskDefinition;
  const recorded = deployment.data.previousTaskDefinition;
  const previous =
    recorded ?? previousSuccessful?.data.deployedTaskDefinition ?? undefined;
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
    body = (
      <>
        {!recorded && (
          <Typography variant="caption" component="p">
            Compared with the release of “{previousSuccessful?.description}”,
            the previous successful deployment.
          </Typography>
        )}
        <TaskDefinitionDiff from={previous} to={deployed} />
      </>
    );
  }
  return (
    <Box marginBottom={2}>
      <Typography variant="h6" component="h3">
        Task definition
        {deployed && previous
          ? ` · ${taskDefinitionName(previous)} → ${taskDefinitionName(
              deployed,
            )}`
          : ''}
      </Typography>
      {body}
    </Box>
  );
};
