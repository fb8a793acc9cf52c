import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

/** "Pushes start the change pipeline · Pull requests get a plan (and a comment)". */
function whatStarts(trigger: NonNullable<Stack['gitTrigger']>): string {
  const parts: string[] = [];
  if (trigger.pushRuns) {
    parts.push(`Pushes to ${trigger.branch} start the change pipeline`);
  }
  if (trigger.pullRequestPlans) {
    parts.push(
      `Pull requests into ${trigger.branch} get a plan${
        trigger.pullRequestComments
          ? ', a check run and a comment'
          : ' and a check run'
      }`,
    );
  }
  return parts.length > 0 ? parts.join(' · ') : 'Nothing starts on its own';
}

/**
 * A stack's trigger rules, in its drawer: which branch it follows, which changes count, and
 * what pushes and pull requests start. A stack without rules says runs start by hand.
 */
export const StackGitTriggerSection = ({ stack }: { stack: Stack }) => {
  const trigger = stack.gitTrigger;
  return (
    <Box
      marginBottom={2}
      component="section"
      aria-labelledby="git-trigger-heading"
    >
      <Typography variant="h6" component="h3" id="git-trigger-heading">
        Trigger rules
      </Typography>
      {trigger ? (
        <>
          <Typography variant="body2">{whatStarts(trigger)}</Typography>
          <Typography variant="body2" color="textSecondary">
            Follows branch <code>{trigger.branch}</code>
            {trigger.pathFilters?.length ? (
              <>
                {' · changes matching '}
                {trigger.pathFilters.map((filter, index) => (
                  <span key={filter}>
                    {index > 0 && ', '}
                    <code>{filter}</code>
                  </span>
                ))}
              </>
            ) : (
              <>
                {' · changes under '}
                <code>{stack.path || '/'}</code>
              </>
            )}
          </Typography>
        </>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Runs start by hand: the stack does not follow a repository.
        </Typography>
      )}
    </Box>
  );
};
