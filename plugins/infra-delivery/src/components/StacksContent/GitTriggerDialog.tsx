import {
  CodeSource,
  Stack,
  StackGitTrigger,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useApi } from '@backstage/frontend-plugin-api';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormGroup from '@material-ui/core/FormGroup';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { CodeSourcesCardLink } from '../common/CodeSourcesCardLink';
import { ErrorPanel } from '../common/ErrorPanel';
import { StopFollowingButton } from './StopFollowingButton';
import { PluginDialog } from '../common/PluginDialog';

/** Path filters as people type them: one per line, or separated by commas. */
export function parsePathFilters(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map(filter => filter.trim())
    .filter(filter => filter.length > 0);
}

/**
 * Edits how a stack follows a repository: the code source and branch, which changes count,
 * and what pushes and pull requests start; or stops following (runs start by hand only).
 */
export const GitTriggerDialog = ({
  stack,
  codeSources,
  onClose,
  onSaved,
}: {
  stack: Stack;
  /** The organization's code sources, to choose from. */
  codeSources: CodeSource[];
  onClose: () => void;
  /** Called with the stack as saved, and what changed in words. */
  onSaved: (stack: Stack, what: string) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const current = stack.gitTrigger;
  const [codeSourceId, setCodeSourceId] = useState(
    stack.codeSourceId ?? codeSources[0]?.id ?? '',
  );
  const codeSource = codeSources.find(source => source.id === codeSourceId);
  const [branch, setBranch] = useState(
    current?.branch ?? codeSource?.defaultBranch ?? 'main',
  );
  const [filters, setFilters] = useState(
    (current?.pathFilters ?? []).join('\n'),
  );
  const [pushRuns, setPushRuns] = useState(current?.pushRuns ?? true);
  const [pullRequestPlans, setPullRequestPlans] = useState(
    current?.pullRequestPlans ?? true,
  );
  const [pullRequestComments, setPullRequestComments] = useState(
    current?.pullRequestComments ?? false,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();

  const save = async (gitTrigger: StackGitTrigger) => {
    setBusy(true);
    setError(undefined);
    try {
      const pathFilters = gitTrigger.pathFilters;
      const saved = await client.call('updateStack', {
        params: { id: stack.id },
        body: {
          data: {
            codeSourceId,
            gitTrigger: {
              ...gitTrigger,
              pathFilters: pathFilters?.length ? pathFilters : undefined,
            },
          },
        },
      });
      onSaved(
        saved.data,
        `${stack.name} follows ${gitTrigger.branch}${
          codeSource ? ` of ${codeSource.repoName}` : ''
        }`,
      );
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  const titleId = `git-trigger-title-${stack.id}`;
  return (
    <PluginDialog
      open
      onClose={() => !busy && onClose()}
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Trigger rules of {stack.name}</DialogTitle>
      <DialogContent>
        {codeSources.length === 0 ? (
          <Typography>
            The organization has no code source yet: connect a GitHub repository
            first, under <CodeSourcesCardLink />.
          </Typography>
        ) : (
          <>
            <TextField
              select
              fullWidth
              margin="normal"
              id={`${titleId}-code-source`}
              label="Repository"
              value={codeSourceId}
              onChange={event => setCodeSourceId(event.target.value)}
            >
              {codeSources.map(source => (
                <MenuItem key={source.id} value={source.id}>
                  {source.repoName}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              fullWidth
              margin="normal"
              id={`${titleId}-branch`}
              label="Branch"
              value={branch}
              onChange={event => setBranch(event.target.value)}
            />
            <TextField
              fullWidth
              multiline
              minRows={2}
              margin="normal"
              id={`${titleId}-filters`}
              label="Path filters"
              helperText={`Globs from the repository root, one per line (infra/network/**). Empty: any change under ${
                stack.path || 'the repository'
              }`}
              value={filters}
              onChange={event => setFilters(event.target.value)}
            />
            <FormGroup>
              <FormControlLabel
                control={
                  <Checkbox
                    color="primary"
                    checked={pushRuns}
                    onChange={event => setPushRuns(event.target.checked)}
                  />
                }
                label="Pushes to the branch start the change pipeline"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    color="primary"
                    checked={pullRequestPlans}
                    onChange={event =>
                      setPullRequestPlans(event.target.checked)
                    }
                  />
                }
                label="Pull requests into the branch get a plan and a check run"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    color="primary"
                    checked={pullRequestComments}
                    disabled={!pullRequestPlans}
                    onChange={event =>
                      setPullRequestComments(event.target.checked)
                    }
                  />
                }
                label="…and a comment with the plan on the pull request"
              />
            </FormGroup>
          </>
        )}
        {error && <ErrorPanel error={error} title="Saving failed" />}
      </DialogContent>
      <DialogActions>
        {current && (
          <StopFollowingButton
            stack={stack}
            trigger={current}
            repoName={
              codeSources.find(source => source.id === stack.codeSourceId)
                ?.repoName
            }
            disabled={busy}
            onStopped={saved =>
              onSaved(
                saved,
                `${stack.name} no longer follows a repository: runs start by hand`,
              )
            }
          />
        )}
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          color="primary"
          variant="contained"
          disabled={busy || !codeSourceId || branch.trim() === ''}
          onClick={() =>
            save({
              branch: branch.trim(),
              pathFilters: parsePathFilters(filters),
              pushRuns,
              pullRequestPlans,
              pullRequestComments: pullRequestPlans && pullRequestComments,
            })
          }
        >
          Save
        </Button>
      </DialogActions>
    </PluginDialog>
  );
};
