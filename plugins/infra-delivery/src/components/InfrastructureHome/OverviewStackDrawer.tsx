import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useReducer, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage } from '../common/ActionMessage';
import { useOpenedDrawer } from '../common/drawerLinks';
import { useNothingToApply } from '../common/nothingToApply';
import { ErrorPanel } from '../common/ErrorPanel';
import { SideDrawer } from '../common/SideDrawer';
import { useRunsCheck } from '../common/useCanExecuteRuns';
import { useRunPagePath } from '../common/useInfrastructurePath';
import { StackDrawer } from '../StacksContent/StackDrawer';
import {
  hasSettled,
  startedRunOutcome,
} from '../StacksContent/startedRunOutcome';
import { isActiveRun, LIVE_POLL_MS } from '../common/livePolling';
import { useLiveRuns } from '../common/useLiveRuns';
import { useLivePolling } from '../common/useLivePolling';
import { PlanAndApplyButton } from '../StacksContent/PlanAndApplyButton';

/**
 * The stack's details with Plan & apply at the top, for those who may start runs: the stack
 * template links here ("its page"), and a stack it created a moment ago offered nothing to
 * press — its catalog entity, whose Stacks tab has the button, comes only with the catalog's
 * next refresh. The message links to the run started, where its plan and Approve are.
 */
const StackWithPlanAndApply = ({
  stack,
  onClose,
}: {
  stack: Stack;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const runPath = useRunPagePath();
  const execute = useRunsCheck();
  // The run started here, read again as the service announces runs (or every few seconds
  // while it is under way, in an app without signals): the message follows it — "is waiting
  // for a runner" must not stand above its Succeeded — and the run history reads again as it
  // changes.
  const [started, setStarted] = useState<PipelineRun>();
  const [version, refresh] = useReducer((n: number) => n + 1, 0);
  const { value: read } = useAsync(
    async () =>
      started &&
      (await client.call('getPipelineRun', { params: { id: started.id } }))
        .data,
    [client, started?.id, version],
  );
  const run = read && read.id === started?.id ? read : started;
  const nothingToApply = useNothingToApply(run);
  useLiveRuns(refresh);
  useLivePolling(
    refresh,
    run && isActiveRun(run.status) ? LIVE_POLL_MS : undefined,
  );
  const what = `A plan of ${stack.name}`;
  const { message, say } = useActionMessage(
    id => run?.id === id && hasSettled(run),
    id =>
      run?.id === id
        ? startedRunOutcome(what, run, runPath(run.id), nothingToApply)
        : undefined,
  );
  const planAndApply = (
    <PlanAndApplyButton
      stack={stack}
      checking={execute.checking}
      onDone={({ data: startedRun }) => {
        setStarted(startedRun);
        say(startedRunOutcome(what, startedRun, runPath(startedRun.id)));
      }}
    />
  );
  return (
    <StackDrawer
      stack={stack}
      runPath={runPath}
      latestRun={run}
      onClose={onClose}
      message={message}
      actions={execute.allowed || execute.checking ? planAndApply : undefined}
    />
  );
};

/** The stack of `stackId`, read by its id, in a drawer; a drawer that says why when it cannot be read. */
const StackByIdDrawer = ({
  stackId,
  onClose,
}: {
  stackId: string;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { value, loading, error } = useAsync(
    () => client.call('getStack', { params: { id: stackId } }),
    [client, stackId],
  );
  if (value) {
    return <StackWithPlanAndApply stack={value.data} onClose={onClose} />;
  }
  return (
    <SideDrawer title="Stack" onClose={onClose}>
      {loading && <Progress />}
      {error && <ErrorPanel error={error} title="The stack cannot be read" />}
    </SideDrawer>
  );
};

/**
 * The stack a link names (`?stack=<id>`, the common package's `portalPages.stack`), its details
 * over the Overview: a stack a template created a moment ago is here at once, where its catalog
 * entity comes with the catalog's next refresh.
 */
export const OverviewStackDrawer = () => {
  const [stackId, setStackId] = useOpenedDrawer('stack');
  return stackId ? (
    <StackByIdDrawer
      key={stackId}
      stackId={stackId}
      onClose={() => setStackId(undefined)}
    />
  ) : null;
};
