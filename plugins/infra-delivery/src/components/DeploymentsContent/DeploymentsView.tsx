import { Progress, TableColumn } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { TableCard } from '../common/TableCard';
import { useApi } from '@backstage/frontend-plugin-api';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useReducer, useRef } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { DetailsButton } from '../common/DetailsButton';
import { StartedAndTook } from '../common/StartedAndTook';
import { Outcome, useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { ErrorPanel } from '../common/ErrorPanel';
import {
  useCanExecuteRuns,
  useCanRollBack,
  useDeployGate,
} from '../common/useCanExecuteRuns';
import { DeployButton } from './DeployButton';
import { deployTargetOf } from './DeployDialog';
import { firstDeployPlaceOf } from './firstDeployPlace';
import { useLiveDeployments } from '../common/useLiveDeployments';
import { useLiveLoad } from '../common/useLiveLoad';
import { useLivePolling } from '../common/useLivePolling';
import { NoAnswerNotice } from '../common/NoAnswerNotice';
import { ReloadFailedNotice } from '../common/ReloadFailedNotice';
import { useOpenedDrawer } from '../common/drawerLinks';
import { DeploymentDrawer } from './DeploymentDrawer';
import {
  deploymentTitle,
  quoted,
  releaseName,
  releaseOf,
} from './deploymentTitle';
import { DeploymentProgress, DeploymentStatus } from './DeploymentStatus';
import { taskDefinitionName } from '../common/shortArns';
import { TaskDefinitionDiff } from './TaskDefinitionDiff';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';
import { CardBody } from '../common/CardBody';

const IN_FLIGHT = ['PENDING', 'IN_PROGRESS'];

/** How a deployment started here is said to have ended, in the message that said it started. */
const ENDED: Partial<Record<Deployment['status'], string>> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'was cancelled',
};

/**
 * What the message of a deployment started here (`what`: "A rollback to “1.0.0”") says as
 * the deployment stands: "A rollback to “1.0.0” started." stood above the rollback's
 * Succeeded until the message went, and a rollback that failed went as silently.
 */
export function startedDeploymentOutcome(
  what: string,
  started: string,
  deployment: Deployment | undefined,
  open: Outcome['open'],
): Outcome {
  const ended = deployment && ENDED[deployment.status];
  return {
    text: `${what} ${ended ?? started}.`,
    whileUnderWay: deployment?.id,
    open,
  };
}

/** Paused at a lifecycle hook: its last step names a hook nobody has continued yet. */
function isPaused(deployment: Deployment): boolean {
  const last = deployment.data.events[deployment.data.events.length - 1];
  return (
    deployment.status === 'IN_PROGRESS' &&
    Boolean(last?.hookId) &&
    deployment.data.acceptedPauseControl?.hookId !== last?.hookId
  );
}
/** How often an in-flight deployment is re-read when the app has no signals to announce it. */
const FALLBACK_REFRESH_MS = 15_000;

export const DeploymentsView = ({
  clusterRef,
  serviceRef,
  annotations,
}: {
  clusterRef: string;
  serviceRef: string;
  /** The entity's: where a first deployment goes. */
  annotations: Record<string, string>;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const canContinue = useCanExecuteRuns();
  const canRollBack = useCanRollBack();
  const deployGate = useDeployGate();
  // Each refresh is a new load, even while one is under way (whose answer is then dropped):
  // an announcement during a load may be about a change that load does not see yet.
  const [version, refresh] = useReducer((v: number) => v + 1, 0);
  const { value, loading, error, silentSince, reloadFailed } = useLiveLoad(
    useAsync(
      () =>
        client.call('listDeployments', {
          query: { clusterRef, serviceRef, limit: 50 },
        }),
      [client, clusterRef, serviceRef, version],
    ),
    refresh,
  );
  const live = useLiveDeployments({ clusterRef, serviceRef }, refresh);
  // The room the table has: the columns fold into others where it is short (see `columns`).
  const [measured, width] = useContainerWidth<HTMLDivElement>();
  const deployments = value?.data ?? [];
  // In the query string: the overview card links straight to a deployment's drawer.
  const [openedId, setOpenedId] = useOpenedDrawer('deployment');
  const underWay = deployments.find(d => IN_FLIGHT.includes(d.status));
  const inFlight = Boolean(underWay);
  // What each deployment started here is called in the message, and what it did at first.
  const startedHere = useRef(
    new Map<string, { what: string; started: string }>(),
  );
  const { message, say } = useActionMessage(
    // A failure stays said until the next action or Close: its row alone read as nothing.
    id =>
      deployments.some(
        d =>
          d.id === id && !IN_FLIGHT.includes(d.status) && d.status !== 'FAILED',
      ),
    id => {
      const named = startedHere.current.get(id);
      const deployment = deployments.find(d => d.id === id);
      return named && deployment
        ? startedDeploymentOutcome(named.what, named.started, deployment, {
            label: 'Show it',
            onClick: () => setOpenedId(id),
          })
        : undefined;
    },
  );
  /** Says that a deployment started, and follows it in the message as it goes. */
  const sayStarted = (
    what: string,
    started: string,
    deployment: Deployment,
  ) => {
    startedHere.current.set(deployment.id, { what, started });
    say(
      startedDeploymentOutcome(what, started, deployment, {
        label: 'Show it',
        onClick: () => setOpenedId(deployment.id),
      }),
    );
  };
  const opened = deployments.find(d => d.id === openedId);

  // Deployments progress on their own. The backend announces each change; only an app
  // without signals has to re-read often while one is in flight. Otherwise the history is read
  // again slowly, for a deployment started elsewhere or a service that stopped answering.
  useLivePolling(refresh, !live && inFlight ? FALLBACK_REFRESH_MS : undefined);

  if (loading && !value) {
    return (
      <>
        <NoAnswerNotice silentSince={silentSince} hasData={false} />
        <Progress />
      </>
    );
  }
  if (error) return <ErrorPanel error={error} />;

  const current = deployments.find(d => d.status === 'SUCCEEDED');
  const title = (d: Deployment) => deploymentTitle(d, deployments);
  // The service takes one deployment at a time (the backend answers SERVICE_BUSY): while one is
  // under way, Roll back and Deploy again stay in their rows, disabled, and say what they wait for.
  const busyReason =
    underWay &&
    `${quoted(
      title(underWay),
    )} is under way: a service takes one deployment at a time. This is possible once it ends.`;
  // Where a new deployment goes: where the newest that names its environment went (one
  // detected on the event bus may name none).
  const target = deployments.find(d => d.environmentId);
  const runningRef = current?.data.deployedTaskDefinition?.ref;
  /**
   * A succeeded deployment of the task definition revision that runs now: the newest, or an
   * older one of the same release (rolled back to), which has nothing to roll back to either.
   */
  const runsNow = (d: Deployment) =>
    d.id === current?.id ||
    (d.status === 'SUCCEEDED' &&
      runningRef !== undefined &&
      d.data.deployedTaskDefinition?.ref === runningRef);
  const release = (d: Deployment) => releaseName(d, deployments);
  /**
   * The row that offers a rollback to each release: a release and a rollback to it offered
   * "Roll back to" the same release twice. The oldest succeeded deployment of the release in the
   * history (the release's own deployment when the history reaches it), never one that runs now.
   */
  const offeredOn = new Map<string, Deployment>();
  for (const d of deployments) {
    if (d.status === 'SUCCEEDED' && !runsNow(d)) {
      offeredOn.set(d.data.deployedTaskDefinition?.ref ?? d.id, d);
    }
  }
  /**
   * The row offering the rollback to `d`'s release, when that is another row (by id: the table
   * renders copies of its rows).
   */
  const offeredElsewhere = (d: Deployment) => {
    const row = offeredOn.get(d.data.deployedTaskDefinition?.ref ?? d.id);
    return row && row.id !== d.id ? row : undefined;
  };

  // Five columns took 680 px, and a 900 px window beside the sidebar has 640: the table scrolled
  // sideways, Actions out of sight. Under 760 px when it started goes under the deployment's
  // name; under 560 px (a 700 px window) its progress goes under its status too.
  const foldStarted = narrowerThan(width, 760);
  const foldProgress = narrowerThan(width, 560);
  const started = (d: Deployment) => (
    <StartedAndTook
      at={d.startedAt ?? d.createdAt}
      startedAt={d.startedAt ?? d.createdAt}
      completedAt={d.completedAt}
    />
  );

  const allColumns: (TableColumn<Deployment> | false)[] = [
    {
      title: 'Deployment',
      render: d => (
        <Box>
          <DetailsButton name={title(d)} onClick={() => setOpenedId(d.id)} />
          <Typography variant="caption" color="textSecondary" component="div">
            {[
              d.data.deployedTaskDefinition &&
                taskDefinitionName(d.data.deployedTaskDefinition),
              d.data.strategy ?? 'rolling',
              d.data.detectedVia === 'EVENT_BUS' &&
                'started outside the portal',
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          {foldStarted && <Box mt={0.5}>{started(d)}</Box>}
        </Box>
      ),
    },
    {
      title: 'Status',
      render: d => (
        <Box>
          <DeploymentStatus deployment={d} />
          {/* Why a succeeded deployment has no Roll back: its release is what runs. */}
          {runsNow(d) && (
            <Typography variant="caption" color="textSecondary" component="div">
              {d.id === current?.id
                ? 'Running now'
                : 'Running now: deployed again since'}
            </Typography>
          )}
          {/* Why another succeeded one has none: a row below offers its release. A rollback's
              title names that release already. */}
          {!runsNow(d) &&
            offeredElsewhere(d) &&
            releaseOf(d, deployments).id !== offeredElsewhere(d)!.id && (
              <Typography
                variant="caption"
                color="textSecondary"
                component="div"
              >
                Same release as {quoted(title(offeredElsewhere(d)!))} below
              </Typography>
            )}
          {foldProgress && (
            <Box mt={0.5}>
              <DeploymentProgress deployment={d} />
            </Box>
          )}
        </Box>
      ),
    },
    !foldProgress && {
      title: 'Progress',
      render: d => <DeploymentProgress deployment={d} />,
    },
    !foldStarted && { title: 'Started', render: started },
    {
      title: 'Actions',
      sorting: false,
      render: d => (
        <Box display="flex" style={{ gap: 8, whiteSpace: 'nowrap' }}>
          {canRollBack &&
            d.status === 'SUCCEEDED' &&
            current &&
            !runsNow(d) &&
            !offeredElsewhere(d) && (
              <ConfirmActionButton
                label="Roll back"
                // Each row's action is named after its row, quoted: descriptions are free text.
                ariaLabel={`Roll back to ${quoted(release(d))}`}
                color="secondary"
                disabled={Boolean(busyReason)}
                disabledReason={busyReason || undefined}
                title={`Roll back to ${quoted(release(d))}?`}
                confirmLabel="Roll back"
                onConfirm={(_note, { idempotencyKey }) =>
                  client.call('rollbackDeployment', {
                    params: { id: d.id },
                    idempotencyKey,
                  })
                }
                onDone={({ data: rollback }) => {
                  sayStarted(
                    `A rollback to ${quoted(release(d))}`,
                    'started',
                    rollback,
                  );
                  refresh();
                }}
              >
                <Typography paragraph>
                  A new deployment replays the exact release of{' '}
                  {quoted(release(d))}. What changes against the running
                  release:
                </Typography>
                <TaskDefinitionDiff
                  from={current.data.deployedTaskDefinition}
                  to={d.data.deployedTaskDefinition}
                />
              </ConfirmActionButton>
            )}
          {canContinue &&
            IN_FLIGHT.includes(d.status) &&
            !d.data.detectedVia &&
            !d.data.revertRequestedAt && (
              <ConfirmActionButton
                label="Cancel"
                ariaLabel={`Cancel ${quoted(title(d))}`}
                color="secondary"
                title={`Cancel ${quoted(title(d))}?`}
                confirmLabel="Cancel the deployment"
                dismissLabel="Keep deploying"
                onConfirm={() =>
                  client.call('cancelDeployment', { params: { id: d.id } })
                }
                onDone={() => {
                  say({
                    text: `${quoted(title(d))} is being cancelled.`,
                    whileUnderWay: d.id,
                  });
                  refresh();
                }}
              >
                <Typography>
                  {d.status === 'PENDING'
                    ? 'It has not started: it ends at once and nothing changes.'
                    : 'ECS stops it and restores the revision that ran before; it ends Cancelled once that runs again.'}
                </Typography>
              </ConfirmActionButton>
            )}
          {canContinue &&
            d.status === 'FAILED' &&
            d.data.deployedTaskDefinition && (
              <ConfirmActionButton
                label="Deploy again"
                ariaLabel={`Deploy again ${quoted(title(d))}`}
                disabled={Boolean(busyReason)}
                disabledReason={busyReason || undefined}
                title={`Deploy ${quoted(title(d))} again?`}
                confirmLabel="Deploy again"
                onConfirm={(_note, { idempotencyKey }) =>
                  client.call('redeployDeployment', {
                    params: { id: d.id },
                    idempotencyKey,
                  })
                }
                onDone={({ data: again }) => {
                  sayStarted(
                    `The new deployment of ${quoted(title(d))}`,
                    'started',
                    again,
                  );
                  refresh();
                }}
              >
                <Typography>
                  A new deployment rolls the same release again, with new tasks:
                  for a failure that may pass (a capacity shortage, a dependency
                  that was down). It fails the same way if the release itself
                  does not start.
                </Typography>
              </ConfirmActionButton>
            )}
          {canContinue && isPaused(d) && (
            <ConfirmActionButton
              label="Continue"
              ariaLabel={`Continue ${quoted(title(d))}`}
              title={`Continue ${quoted(title(d))}?`}
              onConfirm={() =>
                client.call('continueDeployment', { params: { id: d.id } })
              }
              onDone={() => {
                say({ text: `${quoted(title(d))} continues.` });
                refresh();
              }}
            >
              <Typography>The deployment goes on to its next stage.</Typography>
            </ConfirmActionButton>
          )}
        </Box>
      ),
    },
  ];
  const columns = contentWidths<Deployment>(
    allColumns.filter((c): c is TableColumn<Deployment> => Boolean(c)),
  );

  return (
    <div ref={measured}>
      <NoAnswerNotice silentSince={silentSince} />
      <ReloadFailedNotice failure={reloadFailed} />
      <TableCard
        title={`Deployments of ${serviceRef}`}
        subheader={`ECS service ${serviceRef} in cluster ${clusterRef}`}
        action={
          <DeployButton
            gate={deployGate}
            busyReason={busyReason || undefined}
            target={target && deployTargetOf(target)}
            firstDeploy={firstDeployPlaceOf(annotations, {
              clusterRef,
              serviceRef,
            })}
            running={current?.data.deployedTaskDefinition}
            serviceName={serviceRef}
            clusterName={clusterRef}
            onStarted={deployment => {
              sayStarted(quoted(deployment.description), 'started', deployment);
              refresh();
            }}
          />
        }
        notes={message}
      >
        <PluginTable
          options={CARD_TABLE_OPTIONS}
          columns={columns}
          data={deployments}
          emptyContent={
            <CardBody>
              <Typography>No deployments of this service yet.</Typography>
              {/* What to do next: how the first deployment comes to be. */}
              <Typography variant="body2" color="textSecondary">
                The first one starts with Deploy (a whole task definition, where
                the entity's annotations say the service runs), from a pipeline
                run's deploy step (container.deploy) or through the API (POST
                /deployments). It shows here as it rolls out; Deploy then rolls
                new images of it.
              </Typography>
            </CardBody>
          }
        />
      </TableCard>
      {opened && (
        <DeploymentDrawer
          deployment={opened}
          title={title(opened)}
          previousSuccessful={deployments
            .slice(deployments.indexOf(opened) + 1)
            .find(d => d.status === 'SUCCEEDED')}
          onClose={() => setOpenedId(undefined)}
        />
      )}
    </div>
  );
};
