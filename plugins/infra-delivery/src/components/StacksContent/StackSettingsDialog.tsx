import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  runnerLabelsProblem,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Checkbox from '@material-ui/core/Checkbox';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormHelperText from '@material-ui/core/FormHelperText';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import { useId, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
import { fieldErrorsOf } from '../OrganizationSettings/fieldErrors';
import {
  changedSettings,
  intervalProblem,
  settingsChange,
  settingsFormOf,
  STACK_SETTING_LABELS,
  StackSettingsForm,
} from './stackSettings';
import { DialogText } from '../common/DialogText';
import { RunnerLabelsField } from '../common/RunnerLabelsField';

/** Code sources and cloud accounts read for the choices; an organization rarely has more. */
const CHOICES_PAGE = 500;

/**
 * Changes the settings a stack was created with (`PATCH /stacks/{id}`): its name and
 * description, where its code is (code source and working directory), the cloud account it
 * deploys into, the labels of the runners that may plan and apply it, whether plans apply
 * without approval and how often drift is checked. Only
 * what changed is sent; what the service refuses is said beside the field it names.
 */
export const StackSettingsDialog = ({
  stack,
  onClose,
  onSaved,
}: {
  stack: Stack;
  onClose: () => void;
  /** Called with the stack as saved, and what changed in words. */
  onSaved: (stack: Stack, what: string) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const formId = useId();
  const [form, setForm] = useState<StackSettingsForm>(() =>
    settingsFormOf(stack),
  );
  const choices = useAsync(async () => {
    const [codeSources, cloudAccounts] = await Promise.all([
      client.call('listCodeSources', { query: { limit: CHOICES_PAGE } }),
      client.call('listCloudAccounts', { query: { limit: CHOICES_PAGE } }),
    ]);
    return { codeSources: codeSources.data, cloudAccounts: cloudAccounts.data };
  }, [client]);

  const set = <K extends keyof StackSettingsForm>(
    key: K,
    value: StackSettingsForm[K],
  ) => setForm(current => ({ ...current, [key]: value }));
  const change = settingsChange(stack, form);
  const hoursProblem = intervalProblem(form.driftCheckIntervalHours);
  const labelsProblem = runnerLabelsProblem(form.runnerLabels);
  const {
    busy,
    silentFor,
    error,
    submit: save,
  } = useSubmission(async () => {
    const saved = await client.call('updateStack', {
      params: { id: stack.id },
      body: { data: change },
    });
    onSaved(
      saved.data,
      `${saved.data.name}: ${changedSettings(change)} changed`,
    );
  });
  const refused = fieldErrorsOf(error, Object.keys(STACK_SETTING_LABELS));
  const canSave =
    form.name.trim() !== '' &&
    !hoursProblem &&
    !labelsProblem &&
    Object.keys(change).length > 0;

  const codeSources = choices.value?.codeSources ?? [];
  const cloudAccounts = choices.value?.cloudAccounts ?? [];
  return (
    <FormDialog
      title={`Settings of ${stack.name}`}
      submitLabel="Save"
      canSubmit={canSave}
      busy={busy}
      silentFor={silentFor}
      onSubmit={save}
      onClose={onClose}
    >
      <DialogText paragraph>
        Runs started from now on use the new settings; a run under way keeps the
        ones it started with. The branch the stack follows is in its trigger
        rules.
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id={`${formId}-name`}
          label="Name"
          required
          value={form.name}
          error={Boolean(refused?.name)}
          helperText={refused?.name}
          onChange={event => set('name', event.target.value)}
        />
        <TextField
          id={`${formId}-description`}
          label="Description"
          multiline
          minRows={2}
          value={form.description}
          error={Boolean(refused?.description)}
          helperText={refused?.description}
          onChange={event => set('description', event.target.value)}
        />
        {choices.loading && <Progress />}
        {choices.error && (
          <ErrorPanel
            error={choices.error}
            title="The code sources and cloud accounts could not be read"
          />
        )}
        {choices.value && (
          <TextField
            id={`${formId}-code-source`}
            select
            // "None" shows as chosen, not as an empty field.
            SelectProps={{ displayEmpty: true }}
            InputLabelProps={{ shrink: true }}
            label="Code source"
            value={form.codeSourceId}
            error={Boolean(refused?.codeSourceId)}
            helperText={
              refused?.codeSourceId ??
              (stack.codeSourceId
                ? 'The repository that holds the code: another one moves the stack'
                : 'None: the code is in the runner’s source root')
            }
            onChange={event => set('codeSourceId', event.target.value)}
          >
            {/* A code source cannot be taken away: "None" only while there is none. */}
            {!stack.codeSourceId && <MenuItem value="">None</MenuItem>}
            {stack.codeSourceId &&
              !codeSources.some(s => s.id === stack.codeSourceId) && (
                <MenuItem value={stack.codeSourceId}>
                  {stack.codeSourceId} (not readable)
                </MenuItem>
              )}
            {codeSources.map(source => (
              <MenuItem key={source.id} value={source.id}>
                {source.repoName}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          id={`${formId}-path`}
          label="Working directory"
          value={form.path}
          error={Boolean(refused?.path)}
          helperText={
            refused?.path ??
            'The directory of the IaC in the code source (infra/network); empty: its root'
          }
          onChange={event => set('path', event.target.value)}
        />
        {choices.value && (
          <TextField
            id={`${formId}-cloud-account`}
            select
            // "None" shows as chosen, not as an empty field.
            SelectProps={{ displayEmpty: true }}
            InputLabelProps={{ shrink: true }}
            label="Cloud account"
            value={form.cloudAccountId}
            error={Boolean(refused?.cloudAccountId)}
            helperText={
              refused?.cloudAccountId ?? 'The account the stack deploys into'
            }
            onChange={event => set('cloudAccountId', event.target.value)}
          >
            <MenuItem value="">None</MenuItem>
            {stack.cloudAccountId &&
              !cloudAccounts.some(a => a.id === stack.cloudAccountId) && (
                <MenuItem value={stack.cloudAccountId}>
                  {stack.cloudAccountId} (not readable)
                </MenuItem>
              )}
            {cloudAccounts.map(account => (
              <MenuItem key={account.id} value={account.id}>
                {account.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          id={`${formId}-drift-interval`}
          label="Hours between drift checks"
          inputProps={{ inputMode: 'numeric' }}
          value={form.driftCheckIntervalHours}
          error={Boolean(hoursProblem ?? refused?.driftCheckIntervalHours)}
          helperText={
            hoursProblem ??
            refused?.driftCheckIntervalHours ??
            'Empty: no scheduled drift checks'
          }
          onChange={event => set('driftCheckIntervalHours', event.target.value)}
        />
        <RunnerLabelsField
          id={`${formId}-runner-labels`}
          value={form.runnerLabels}
          refused={refused?.runnerLabels}
          hint="Only a runner started with all of these (--labels env=prod) plans and applies the stack, also runs waiting now; empty: any runner"
          onChange={text => set('runnerLabels', text)}
        />
        <div>
          <FormControlLabel
            control={
              <Checkbox
                color="primary"
                checked={form.autoApprove}
                onChange={event => set('autoApprove', event.target.checked)}
              />
            }
            label="Apply plans without approval"
          />
          <FormHelperText error={Boolean(refused?.autoApprove)}>
            {refused?.autoApprove ??
              'Runs already started keep the approval step they started with'}
          </FormHelperText>
        </div>
      </Box>
      {error && !refused && (
        <ErrorPanel error={error} title="The settings could not be saved" />
      )}
    </FormDialog>
  );
};
