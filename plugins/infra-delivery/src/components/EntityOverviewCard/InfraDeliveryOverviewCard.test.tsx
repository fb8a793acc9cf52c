import { Entity } from '@backstage/catalog-model';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import {
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import {
  Deployment,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import { deploymentFixture } from '../../__testUtils__/deploymentFixtures';
import {
  baseUrl,
  client,
  errorResponse,
  list,
  pipelineRun,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { InfraDeliveryOverviewCard } from './InfraDeliveryOverviewCard';
import {
  answeredStarting,
  leasedPlanHeard,
  pastSilenceOfRunnerHeard10sBefore,
} from '../../__testUtils__/runnerSilence';

const ago = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000).toISOString();

const network = stack({ id: 'net', name: 'Network', givenId: 'network' });

/** A run of Network held while run-7 holds the stack. */
const heldByRun7 = () =>
  pipelineRun({
    id: 'run-8',
    status: 'QUEUED',
    attachedEntityId: 'net',
    pipelineId: network.changePipelineId,
    startedAt: ago(1),
    queueState: {
      preflightBlockedByAdmissionCondition: true,
      stackRunPreflightPending: false,
      blockingRunId: 'run-7',
      blockingEntityId: 'net',
    },
  });
const database = stack({ id: 'db', name: 'Database', givenId: 'database' });

function component(annotations: Record<string, string>): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'payments', annotations },
    spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
  };
}

/** An entity with two stacks and an ECS service. */
const withStacksAndService = component({
  'infra-delivery.io/stacks': 'net,db',
  'infra-delivery.io/ecs-service': 'payments/payments-api',
});

describe('InfraDeliveryOverviewCard', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let latestRuns: PipelineRun[];
  /** Runs read by id: those holding the stacks of held runs. */
  let holders: PipelineRun[];
  let deployments: Deployment[];

  beforeEach(() => {
    latestRuns = [];
    holders = [];
    deployments = [];
    server.use(
      stackList([network, database]),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const ids = new URL(request.url).searchParams.getAll('id');
        return HttpResponse.json(
          list(
            ids.length
              ? holders.filter(run => ids.includes(run.id))
              : latestRuns,
          ),
        );
      }),
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(deployments)),
      ),
    );
  });

  const renderCard = (entity: Entity) =>
    renderInTestApp(
      <EntityProvider entity={entity}>
        <InfraDeliveryOverviewCard />
      </EntityProvider>,
      {
        apis: [[infraDeliveryApiRef, client]],
        mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
      },
    );

  const section = (name: string) => screen.findByRole('region', { name });

  it('says why the newest run waits: for a runner, or for the run that holds its stack', async () => {
    latestRuns = [
      pipelineRun({
        id: 'run-7',
        status: 'RUNNING',
        attachedEntityId: 'net',
        pipelineId: network.changePipelineId,
        startedAt: ago(2),
        queueState: {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
          waitingForRunner: true,
          reason: 'No runner is connected to this organization',
        },
      }),
    ];
    const { unmount } = await renderCard(
      component({ 'infra-delivery.io/stacks': 'net' }),
    );
    const latestRun = await section('Latest run');
    expect(
      await within(latestRun).findByText(
        'No runner is connected to this organization',
      ),
    ).toBeInTheDocument();
    unmount();

    latestRuns = [heldByRun7()];
    await renderCard(component({ 'infra-delivery.io/stacks': 'net' }));
    const held = await section('Latest run');
    expect(
      await within(held).findByRole('link', { name: 'another run' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-runs/run-7',
    );
    expect(held).toHaveTextContent('Held: the stack is busy with another run');
  });

  it('names the run that holds the stack of a held newest run, and what keeps it', async () => {
    holders = [
      pipelineRun({
        id: 'run-7',
        description: 'Raise the alert thresholds',
        status: 'WAITING_FOR_APPROVAL',
        attachedEntityId: 'net',
      }),
    ];
    latestRuns = [heldByRun7()];
    await renderCard(component({ 'infra-delivery.io/stacks': 'net' }));
    const held = await section('Latest run');

    expect(
      await within(held).findByRole('link', {
        name: 'Raise the alert thresholds',
      }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-runs/run-7',
    );
    expect(held).toHaveTextContent(
      'Waits for Raise the alert thresholds, which waits for approval',
    );
    // The stack's own line says it too: "Queued" alone hid that an approval is what it needs.
    expect(await section('Stacks')).toHaveTextContent(
      'Waits for Raise the alert thresholds, which waits for approval',
    );
  });

  it('does not count the silence of a running run’s runner on while the service answers its reads with errors', async () => {
    // Heard from 10 s before the card's read, six seconds short of silent; then the backend
    // goes away and the card's next read (5 s on) fails.
    latestRuns = [
      pipelineRun({
        id: 'run-9',
        status: 'RUNNING',
        attachedEntityId: 'net',
        pipelineId: network.changePipelineId,
        startedAt: ago(1),
        leasedStep: leasedPlanHeard(10),
      }),
    ];
    await renderCard(component({ 'infra-delivery.io/stacks': 'net' }));
    const latestRun = await section('Latest run');
    expect(
      await within(latestRun).findByText('Plan on Build hosts (worker-1)'),
    ).toBeInTheDocument();
    server.use(answeredStarting('/pipeline-runs'));
    await act(pastSilenceOfRunnerHeard10sBefore);
    expect(requestsTo('GET', '/pipeline-runs').length).toBeGreaterThan(1);
    expect(latestRun).not.toHaveTextContent(/heard from/);
    expect(latestRun).toHaveTextContent('Plan on Build hosts (worker-1)');
  });

  it('reads a queued or running run again every few seconds, and a finished one not at all', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const waiting = pipelineRun({
        id: 'run-9',
        status: 'RUNNING',
        attachedEntityId: 'net',
        pipelineId: network.changePipelineId,
        startedAt: ago(1),
        queueState: {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
          waitingForRunner: false,
          reason:
            'Queued for a runner: the one connected runner is busy with another step',
        },
      });
      latestRuns = [waiting];
      await renderCard(component({ 'infra-delivery.io/stacks': 'net' }));
      const latestRun = await section('Latest run');
      await within(latestRun).findByText(
        'Queued for a runner: the one connected runner is busy with another step',
      );
      const runReads = () => requestsTo('GET', '/pipeline-runs').length;
      const before = runReads();

      // The runner stopped answering: nothing is announced, the card finds out by reading.
      latestRuns = [
        {
          ...waiting,
          queueState: {
            ...waiting.queueState!,
            waitingForRunner: true,
            reason: 'No runner is connected to this organization',
          },
        },
      ];
      act(() => {
        jest.advanceTimersByTime(5_000);
      });
      expect(
        await within(latestRun).findByText(
          'No runner is connected to this organization',
        ),
      ).toBeInTheDocument();
      expect(runReads()).toBe(before + 1);

      latestRuns = [{ ...waiting, status: 'SUCCEEDED', queueState: undefined }];
      act(() => {
        jest.advanceTimersByTime(5_000);
      });
      expect(
        await within(latestRun).findByText('Succeeded'),
      ).toBeInTheDocument();
      const after = runReads();
      act(() => {
        jest.advanceTimersByTime(60_000);
      });
      expect(runReads()).toBe(after);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the newest run, each stack with its last run and the newest deployment, linked to their tabs', async () => {
    latestRuns = [
      pipelineRun({
        id: 'run-1',
        status: 'SUCCEEDED',
        attachedEntityId: 'net',
        pipelineId: network.changePipelineId,
        startedAt: ago(60 * 3),
      }),
      pipelineRun({
        id: 'run-2',
        status: 'WAITING_FOR_APPROVAL',
        attachedEntityId: 'db',
        pipelineId: database.destroyPipelineId,
        startedAt: ago(5),
      }),
    ];
    deployments = [deploymentFixture('d3', 'IN_PROGRESS', 'app:3')];
    await renderCard(withStacksAndService);

    const latestRun = await section('Latest run');
    expect(
      await within(latestRun).findByRole('link', { name: 'Destroy' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-runs/run-2',
    );
    expect(
      within(latestRun).getByText('Waiting for approval'),
    ).toBeInTheDocument();
    expect(within(latestRun).getByText(/Database/)).toBeInTheDocument();
    expect(within(latestRun).getByText('5 minutes ago')).toBeInTheDocument();
    expect(
      within(latestRun).getByRole('link', { name: 'All runs' }),
    ).toHaveAttribute('href', '/catalog/default/component/payments/infra-runs');

    const stacks = await section('Stacks');
    const lineOf = (name: string) => {
      const link = within(stacks).getByRole('link', { name });
      // Each stack's name leads to the stack's own entity.
      expect(link.getAttribute('href')).toMatch(
        /^\/catalog\/default\/resource\/stack-/,
      );
      return link.parentElement!.parentElement!.parentElement as HTMLElement;
    };
    const networkLine = lineOf('Network');
    expect(within(networkLine).getByText('Succeeded')).toBeInTheDocument();
    const databaseLine = lineOf('Database');
    expect(
      within(databaseLine).getByText('Waiting for approval'),
    ).toBeInTheDocument();
    expect(
      within(stacks).getByRole('link', { name: 'All stacks' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-stacks',
    );

    const deployment = await section('Latest deployment');
    // The deployment leads to its drawer on the Deployments tab.
    expect(
      await within(deployment).findByRole('link', { name: 'Deploy app:3' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-deployments?deployment=d3',
    );
    expect(within(deployment).getByText('In progress')).toBeInTheDocument();
    expect(within(deployment).getByText(/payments:3 ·/)).toBeInTheDocument();
    expect(
      within(deployment).getByRole('link', { name: 'All deployments' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments/infra-deployments',
    );

    const [deploymentsRequest] = requestsTo('GET', '/deployments');
    expect(deploymentsRequest.query.get('clusterRef')).toBe('payments');
    expect(deploymentsRequest.query.get('serviceRef')).toBe('payments-api');
    const [runsRequest] = requestsTo('GET', '/pipeline-runs');
    expect(runsRequest.query.getAll('attachedEntityId')).toEqual(['net', 'db']);
    expect(runsRequest.query.get('latestPerEntity')).toBe('1');
  });

  it('keeps its sections in their final order while the stacks load, a placeholder for each line to come', async () => {
    deployments = [deploymentFixture('d3', 'IN_PROGRESS', 'app:3')];
    // The stacks never answer.
    server.use(http.get(`${baseUrl}/stacks`, () => new Promise(() => {})));
    await renderCard(withStacksAndService);

    const deployment = await section('Latest deployment');
    expect(
      await within(deployment).findByRole('link', { name: 'Deploy app:3' }),
    ).toBeInTheDocument();
    // The sections that load last stand above it already, not popping in over it.
    expect(
      screen.getAllByRole('heading', { level: 3 }).map(h => h.textContent),
    ).toEqual(['Latest run', 'Stacks', 'Latest deployment']);
    expect(
      within(await section('Latest run')).getAllByRole('progressbar'),
    ).toHaveLength(1);
    expect(
      within(await section('Stacks')).getAllByRole('progressbar'),
    ).toHaveLength(2);
  });

  it('leaves the deployment out for an entity without an ECS service', async () => {
    await renderCard(component({ 'infra-delivery.io/stacks': 'net' }));

    const latestRun = await section('Latest run');
    expect(
      await within(latestRun).findByText('No stack has run yet.'),
    ).toBeInTheDocument();
    const stacks = await section('Stacks');
    expect(within(stacks).getByText('Never run')).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Latest deployment' }),
    ).not.toBeInTheDocument();
    expect(requestsTo('GET', '/deployments')).toHaveLength(0);
  });

  it('shows only the deployment for an entity that names no stack, and says when there is none', async () => {
    await renderCard(
      component({ 'infra-delivery.io/ecs-service': 'payments/payments-api' }),
    );

    const deployment = await section('Latest deployment');
    expect(
      await within(deployment).findByText('No deployment of payments-api yet.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Stacks' }),
    ).not.toBeInTheDocument();
    expect(requestsTo('GET', '/pipeline-runs')).toHaveLength(0);
  });

  it("shows a stack's own page its drift instead of a list naming only itself", async () => {
    server.use(
      stackList([
        {
          ...network,
          driftStatus: 'DRIFTED',
          driftedResourceCount: 3,
          lastDriftCheckAt: ago(5),
        },
      ]),
    );
    await renderCard({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: 'stack-net',
        annotations: { 'infra-delivery.io/stacks': 'net' },
      },
      spec: { type: 'iac-stack', owner: 'team-a' },
    });

    const drift = await section('Drift');
    expect(
      within(drift).getByText('Drifted (3 resources)'),
    ).toBeInTheDocument();
    expect(within(drift).getByText(/^Checked/)).toHaveTextContent(
      'Checked 5 minutes ago',
    );
    expect(
      within(drift).getByRole('link', { name: 'Stack details' }),
    ).toHaveAttribute(
      'href',
      // The stack's own drawer, with its drifted resources.
      '/catalog/default/resource/stack-net/infra-stacks?stack=net',
    );
    expect(screen.queryByRole('region', { name: 'Stacks' })).toBeNull();
  });

  it('lists only the stacks the service has, and names the others its catalog-info.yaml still lists', async () => {
    await renderCard(component({ 'infra-delivery.io/stacks': 'net,gone' }));

    const stacks = await section('Stacks');
    expect(within(stacks).getByText('Network')).toBeInTheDocument();
    expect(within(stacks).queryByText(/was not found/)).toBeNull();
    expect(
      within(stacks).getByText(
        /also names a stack the infrastructure service does not have/,
      ),
    ).toHaveTextContent('gone. Remove it from');
  });

  it('explains an error of the service', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Authorization:FORBIDDEN',
          message: 'Reading deployments needs the VIEWER role',
          requestId: 'req-2',
        }),
      ),
    );
    await renderCard(
      component({ 'infra-delivery.io/ecs-service': 'payments/payments-api' }),
    );

    const deployment = await section('Latest deployment');
    expect(
      await within(deployment).findByText(
        'Reading deployments needs the VIEWER role',
      ),
    ).toBeInTheDocument();
  });

  it('names the annotations it needs on an entity without them', async () => {
    await renderCard(component({}));

    expect(
      await screen.findByText(/infra-delivery.io\/stacks/),
    ).toBeInTheDocument();
    expect(requestsTo('GET', '/pipeline-runs')).toHaveLength(0);
    expect(requestsTo('GET', '/deployments')).toHaveLength(0);
  });
});
