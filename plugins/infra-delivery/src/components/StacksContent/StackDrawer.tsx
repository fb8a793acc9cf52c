import { Progress } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { contentWidths, TABLE_OPTIONS } from '../common/tableOptions';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { infraDeliveryApiRef } from '../../api';
import { LoadNotes } from '../common/LoadNotes';
import { ResourceName } from '../common/ResourceName';
import { MaybeLink } from '../common/MaybeLink';
import { SideDrawer } from '../common/SideDrawer';
import { RunState } from '../common/RunStatus';
import { StartedAndTook } from '../common/StartedAndTook';
import { runTitleBesideStack } from '../common/runTitle';
import { StackDriftSection } from '../Drift/StackDriftSection';
import { RunTrigger } from '../common/RunTrigger';
import { StackGitTriggerSection } from './StackGitTriggerSection';
import { StackOutputsSection } from './StackOutputs';
import { StackSettingsSection } from './StackSettingsSection';
import { DeleteStackButton } from './DeleteStackButton';
import { attemptStartedAt } from '../PipelineRunsContent/attemptStartedAt';

/**
 * A provider as people name it: `hashicorp/aws` for `registry.terraform.io/hashicorp/aws`
 * (the registry host is the same for nearly every provider, and only widens the column), and
 * `builtin/terraform` for the provider built into Terraform (`terraform.io/builtin/terraform`).
 */
export function providerName(provider: string): string {
  return provider.replace(
    /^(registry\.(terraform|opentofu)\.(io|org)|terraform\.io)\//,
    '',
  );
}

/** What the details of a stack show and do, in a drawer or on the stack's own page. */
export interface StackDetailsProps {
  stack: Stack;
  /** The stack's latest run as the table last read it: the history follows it. */
  latestRun?: PipelineRun;
  /** The stack's applied resources as the table counts them. */
  resourceCount?: number;
  /** Called with what an edit of the stack changed, in words. */
  onChanged?: (what: string) => void;
  /** The page of a run, where the app has one: the run history links to it. */
  runPath?: (runId: string) => string | undefined;
  /** Called with a run the details' actions started. */
  onStarted?: (what: string, run: PipelineRun) => void;
  /** Why a drift check cannot start now: the stack's open run, in words. */
  driftCheckBusy?: string;
  /** Called once the stack is deleted: with it, those who may change stacks can delete it. */
  onDeleted?: (stack: Stack) => void;
}

/**
 * A stack's settings, git trigger, drift, outputs, current resources (#14 by stack) and run history (#13
 * by entity), read again whenever the stack changes (a run or drift check started here, or
 * ended).
 */
export const StackDetails = ({
  stack,
  runPath,
  onStarted,
  latestRun,
  resourceCount,
  onChanged,
  driftCheckBusy,
  onDeleted,
}: StackDetailsProps) => {
  const client = useApi(infraDeliveryApiRef);
  const details = useReloadableAsync(
    async () => {
      const [resources, runs] = await Promise.all([
        client.call('listIacResources', {
          query: { stackId: stack.id, limit: 500 },
        }),
        client.call('listPipelineRuns', {
          query: { attachedEntityId: [stack.id], limit: 20 },
        }),
      ]);
      return {
        resources: resources.data,
        runs: runs.data,
        total: resources.meta.totalCount,
      };
    },
    // Read again as the stack or its latest run changes; still the same stack's details.
    [
      client,
      stack.id,
      stack.updatedAt,
      stack.lastDriftCheckAt,
      latestRun?.id,
      latestRun?.status,
    ],
    [client, stack.id],
  );
  const { value, loading } = details;

  return (
    <>
      <StackSettingsSection stack={stack} onChanged={onChanged}>
        {onDeleted && (
          <DeleteStackButton
            stack={stack}
            resourceCount={resourceCount}
            latestRun={latestRun}
            onDeleted={onDeleted}
          />
        )}
      </StackSettingsSection>
      <StackGitTriggerSection stack={stack} onChanged={onChanged} />
      <StackDriftSection
        stack={stack}
        runPath={runPath}
        onStarted={onStarted}
        resourceCount={resourceCount}
        busy={driftCheckBusy}
      />
      <StackOutputsSection output={stack.output} />
      {loading && !value && <Progress />}
      <LoadNotes state={details} />
      {value && (
        <>
          <PluginTable
            title={`Current resources (${value.total})`}
            options={{ ...TABLE_OPTIONS, search: true }}
            // As wide as their content: an address is read whole, a provider is short.
            columns={contentWidths([
              {
                title: 'Address',
                field: 'address',
                render: resource => (
                  <ResourceName>{resource.address}</ResourceName>
                ),
              },
              {
                title: 'Type',
                field: 'resourceType',
                render: resource => (
                  <ResourceName>{resource.resourceType}</ResourceName>
                ),
              },
              {
                title: 'Provider',
                field: 'provider',
                render: resource => providerName(resource.provider),
              },
            ])}
            data={value.resources}
            emptyContent={
              <Box padding={2}>
                <Typography variant="body2">
                  No resources yet: an apply of the stack records what it
                  created.
                </Typography>
              </Box>
            }
          />
          <Box marginTop={2}>
            <PluginTable
              title="Run history"
              options={TABLE_OPTIONS}
              columns={[
                {
                  title: 'Status',
                  render: run => <RunState run={run} />,
                },
                {
                  title: 'Run',
                  render: run => (
                    <>
                      <MaybeLink to={runPath?.(run.id)}>
                        {runTitleBesideStack(run, [stack])}
                      </MaybeLink>
                      {run.gitSource && (
                        <Typography variant="body2" color="textSecondary">
                          <RunTrigger run={run} />
                        </Typography>
                      )}
                    </>
                  ),
                },
                {
                  title: 'Started',
                  render: run => (
                    <StartedAndTook
                      at={run.startedAt ?? run.createdAt}
                      startedAt={attemptStartedAt(run)}
                      completedAt={run.completedAt}
                    />
                  ),
                },
              ]}
              data={value.runs}
              emptyContent={
                <Box padding={2}>
                  <Typography variant="body2">
                    No run yet: Plan & apply starts the first.
                  </Typography>
                </Box>
              }
            />
          </Box>
        </>
      )}
    </>
  );
};

/**
 * A stack opened from its row: its details beside the table, with what the caller may start
 * on it and what the last action started (the drawer covers the page's message).
 */
export const StackDrawer = ({
  onClose,
  message,
  actions,
  ...details
}: StackDetailsProps & {
  onClose: () => void;
  /** What the caller may start on the stack (Plan & apply, Destroy), as its row offers it. */
  actions?: ReactNode;
  /** What the last action started, said here too. */
  message?: ReactNode;
}) => (
  <SideDrawer title={details.stack.name} onClose={onClose}>
    {message}
    {actions && <Box marginBottom={2}>{actions}</Box>}
    <StackDetails {...details} />
  </SideDrawer>
);
