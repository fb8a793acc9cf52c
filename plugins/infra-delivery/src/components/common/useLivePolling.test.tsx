import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  Deployment,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  baseUrl,
  entityNaming,
  list,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
  stack,
  stackList,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  annotatedServiceEntity,
  deploymentFixture,
} from '../../__testUtils__/deploymentFixtures';
import {
  noAnswerNotice,
  saysNoAnswerAfterWaiting,
} from '../../__testUtils__/unansweredService';
import {
  setPageVisibility,
  timersLater,
} from '../../__testUtils__/pageVisibility';
import { PipelineRunsContent } from '../PipelineRunsContent/PipelineRunsContent';
import { StacksContent } from '../StacksContent/StacksContent';
import { DeploymentsContent } from '../DeploymentsContent/DeploymentsContent';
import { InfraDeliveryOverviewCard } from '../EntityOverviewCard/InfraDeliveryOverviewCard';
import { IDLE_POLL_MS } from './useLivePolling';

const network = stack({ id: 'stack-network', name: 'Network' });
const finished = pipelineRun({
  id: 'run-1',
  description: 'Widen the subnets',
  attachedEntityId: network.id,
  pipelineId: network.changePipelineId,
  status: 'SUCCEEDED',
});
/** A run started through the API while the view was open: nothing announced it. */
const startedElsewhere = pipelineRun({
  id: 'run-2',
  description: 'Rotate the NAT gateway',
  attachedEntityId: network.id,
  pipelineId: network.changePipelineId,
  status: 'RUNNING',
});

/** What a live view reads, as the service has it now: its runs or its deployments. */
interface IdleView {
  name: string;
  render(): void;
  /** The service's handlers, reading the runs or deployments at each request. */
  handlers(runs: () => PipelineRun[], deployments: () => Deployment[]): any[];
  /** The path the view reads again. */
  path: string;
  /** What it shows of the finished run or deployment. */
  shows: string;
  /** What it shows once it has read the run or deployment started elsewhere. */
  showsStarted: string;
}

const views: IdleView[] = [
  {
    name: 'the runs list',
    render: () =>
      renderEntityContent(<PipelineRunsContent />, entityNaming(network.id)),
    handlers: runs => [
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list(runs())),
      ),
      stackList([network]),
      http.get(`${baseUrl}/memberships`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([])),
      ),
    ],
    path: '/pipeline-runs',
    shows: finished.description!,
    showsStarted: startedElsewhere.description!,
  },
  {
    name: 'the Stacks tab',
    render: () =>
      renderEntityContent(<StacksContent />, entityNaming(network.id)),
    handlers: runs => [
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list(runs().slice(-1))),
      ),
      stackList([network]),
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({
          data: { counts: [{ stackId: network.id, count: 3 }] },
        }),
      ),
    ],
    path: '/pipeline-runs',
    shows: 'Succeeded',
    showsStarted: 'Running',
  },
  {
    name: 'the Deployments tab',
    render: () =>
      renderEntityContent(<DeploymentsContent />, annotatedServiceEntity()),
    handlers: (_runs, deployments) => [
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(deployments())),
      ),
    ],
    path: '/deployments',
    shows: 'Succeeded',
    showsStarted: 'In progress',
  },
  {
    name: "the overview card's stacks",
    render: () =>
      renderEntityContent(
        <InfraDeliveryOverviewCard />,
        entityNaming(network.id),
      ),
    handlers: runs => [
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list(runs().slice(-1))),
      ),
      stackList([network]),
    ],
    path: '/pipeline-runs',
    shows: finished.description!,
    showsStarted: startedElsewhere.description!,
  },
  {
    name: "the overview card's deployment",
    render: () =>
      renderEntityContent(
        <InfraDeliveryOverviewCard />,
        annotatedServiceEntity(),
      ),
    handlers: (_runs, deployments) => [
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(deployments().slice(0, 1))),
      ),
    ],
    path: '/deployments',
    shows: 'Deploy app:1',
    showsStarted: 'Deploy app:2',
  },
];

describe.each(views)('$name, with nothing under way', view => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let runs: PipelineRun[];
  let deployments: Deployment[];
  /** Requests the service holds unanswered (a frozen backend) while set. */
  let held: Promise<void> | undefined;
  let release: () => void;

  const reads = () => requestsTo('GET', view.path).length;
  /** The view has shown what the service had, and read nothing since. */
  async function openIdle() {
    view.render();
    expect(await screen.findByText(view.shows)).toBeInTheDocument();
    await waitFor(() => expect(reads()).toBeGreaterThan(0));
    return reads();
  }

  beforeEach(() => {
    // The runs list measures its rendering with performance marks, which fake timers lack.
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ['performance'] });
    runs = [finished];
    deployments = [deploymentFixture('d1', 'SUCCEEDED', 'app:1')];
    held = undefined;
    server.use(
      http.all(`${baseUrl}/*`, async () => {
        await held;
        return undefined;
      }),
      ...view.handlers(
        () => runs,
        () => deployments,
      ),
    );
  });
  afterEach(() => {
    release?.();
    jest.useRealTimers();
    setPageVisibility('visible');
  });

  it('reads again every half minute, and shows what was started elsewhere', async () => {
    const before = await openIdle();
    timersLater(IDLE_POLL_MS - 1_000);
    expect(reads()).toBe(before);

    runs = [finished, startedElsewhere];
    deployments = [
      deploymentFixture('d2', 'IN_PROGRESS', 'app:2'),
      ...deployments,
    ];
    timersLater(1_000);
    expect(await screen.findByText(view.showsStarted)).toBeInTheDocument();
    expect(reads()).toBe(before + 1);
  });

  it('says so when the service stops answering, and keeps what it read', async () => {
    await openIdle();
    held = new Promise(resolve => {
      release = resolve;
    });
    timersLater(IDLE_POLL_MS);
    expect(noAnswerNotice()).toBeUndefined();

    await saysNoAnswerAfterWaiting(timersLater);
    expect(screen.getByText(view.shows)).toBeInTheDocument();

    release();
    await waitFor(() => expect(noAnswerNotice()).toBeUndefined());
  });

  it('reads nothing while the page is out of sight, and reads at once when it is back', async () => {
    const before = await openIdle();
    setPageVisibility('hidden');
    timersLater(4 * IDLE_POLL_MS);
    expect(reads()).toBe(before);

    setPageVisibility('visible');
    await waitFor(() => expect(reads()).toBe(before + 1));
  });
});
