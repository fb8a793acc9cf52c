import { Link } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ButtonWithReason } from '../common/ButtonWithReason';
import {
  CHECKING_PERMISSIONS,
  useResourceWriteCheck,
} from '../common/useCanExecuteRuns';
import { GitTriggerDialog } from './GitTriggerDialog';

/** Code sources read for the editor's choice; an organization rarely has more. */
const CODE_SOURCE_PAGE = 100;

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
 * A stack's trigger rules, in its drawer: which repository and branch it follows, which
 * changes count, and what pushes and pull requests start, with an editor for those who may
 * change stacks. A stack without rules says runs start by hand.
 */
export const StackGitTriggerSection = ({
  stack,
  onChanged,
}: {
  stack: Stack;
  /** Called with what an edit changed, in words. */
  onChanged?: (what: string) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const edit = useResourceWriteCheck();
  const [editing, setEditing] = useState(false);
  const codeSources = useAsync(
    async () =>
      (
        await client.call('listCodeSources', {
          query: { limit: CODE_SOURCE_PAGE },
        })
      ).data,
    [client],
  );
  // Still reading who may edit, or the repositories to choose from: the button waits, greyed.
  const checking = edit.checking || (edit.allowed && codeSources.loading);
  const repository = codeSources.value?.find(
    source => source.id === stack.codeSourceId,
  );
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
            {repository && (
              <>
                {' of '}
                <Link to={repository.repoUrl} underline="always">
                  {repository.repoName}
                </Link>
              </>
            )}
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
      {((edit.allowed && codeSources.value) || checking) && (
        <Box marginTop={1}>
          <ButtonWithReason
            size="small"
            variant="outlined"
            color="primary"
            disabled={checking}
            disabledReason={CHECKING_PERMISSIONS}
            onClick={() => setEditing(true)}
          >
            {trigger ? 'Edit trigger rules' : 'Follow a repository'}
          </ButtonWithReason>
        </Box>
      )}
      {editing && codeSources.value && (
        <GitTriggerDialog
          stack={stack}
          codeSources={codeSources.value}
          onClose={() => setEditing(false)}
          onSaved={(_saved, what) => {
            setEditing(false);
            onChanged?.(what);
          }}
        />
      )}
    </Box>
  );
};
