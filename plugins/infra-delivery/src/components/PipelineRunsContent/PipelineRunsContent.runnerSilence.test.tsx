import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  fakeSignals,
  list,
  pipelineRun,
  renderEntityContent,
  renderWithService,
  runPageHandlers,
  setupInfraDeliveryServer,
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import { PipelineRunsContent } from './PipelineRunsContent';
import {
  answeredStarting,
  pastSilenceOfRunnerHeard10sBefore,
} from '../../__testUtils__/runnerSilence';
import { DataAsOf } from '../common/DataAsOf';
import { LoadState } from '../common/loadState';
import {
  leaseSilence,
  RunnerSilenceNotice,
  StepRunnerCaption,
} from './StepRunner';

const LEASE_MS = 60_000;

const run = pipelineRun({
  id: 'run-planning',
  description: 'Plan the network',
  attachedEntityId: 'stack-network',
  status: 'RUNNING',
  isCancellable: true,
});

/**
 * The plan step, its lease last renewed `secondsAgo` seconds ago by worker-1, which signed in as
 * the service account `runnerName` (none: not known).
 */
function planStep(
  secondsAgo: number,
  runnerName: string | null = 'Build hosts',
  /** When the service last heard from the runner (its log appends too); unsaid without it. */
  heardSecondsAgo?: number,
): StepExecution {
  const renewed = Date.now() - secondsAgo * 1000;
  const heard =
    heardSecondsAgo === undefined
      ? {}
      : {
          lastHeardAt: new Date(
            Date.now() - heardSecondsAgo * 1000,
          ).toISOString(),
        };
  return stepExecution({
    id: 'step-plan',
    pipelineRunId: run.id,
    position: 0,
    name: 'Plan',
    type: 'iac.plan',
    status: 'RUNNING',
    startedAt: new Date(renewed).toISOString(),
    lease: {
      runnerId: 'worker-1',
      ...(runnerName ? { runnerName } : {}),
      renewedAt: new Date(renewed).toISOString(),
      expiresAt: new Date(renewed + LEASE_MS).toISOString(),
      ...heard,
    },
  });
}

const noticeMatching = (card: HTMLElement, text: RegExp) =>
  within(card)
    .queryAllByRole('status')
    .find(element => text.test(element.textContent ?? ''));

const silenceNotice = (card: HTMLElement) =>
  noticeMatching(card, /has sent no heartbeat/);

/** The runner silence notice whose text matches `text`, once it shows. */
const findNotice = (card: HTMLElement, text: RegExp) =>
  waitFor(() => {
    const found = noticeMatching(card, text);
    expect(found).toBeDefined();
    return found!;
  });

describe('PipelineRunsContent when the runner of a running step stops reporting', () => {
  const { server } = setupInfraDeliveryServer();
  let steps: StepExecution[];

  beforeEach(() => {
    server.use(
      ...runPageHandlers(run, () => steps),
      http.get(`${baseUrl}/pipeline-step-executions/step-plan/logs`, () =>
        HttpResponse.json(list([])),
      ),
    );
  });

  async function openRun(signals = fakeSignals()) {
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      {
        signals: signals.api,
      },
    );
    await userEvent.click(
      await screen.findByRole('link', { name: run.description }),
    );
    return await screen.findByRole('region', { name: 'Run details' });
  }

  /** The run's notice about its runner, once its step names that runner ("on Build hosts"). */
  async function runnerNoticeOnceNamed() {
    const card = await openRun();
    expect(
      await within(card).findByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent('on Build hosts (worker-1)');
    return noticeMatching(card, /^Runner/);
  }

  it('names the runner of a step whose runner reports, and warns of nothing', async () => {
    steps = [planStep(5)];
    const card = await openRun();

    const header = await within(card).findByRole('button', {
      name: /1\. Plan/,
    });
    expect(header).toHaveTextContent('on Build hosts (worker-1)');
    expect(silenceNotice(card)).toBeUndefined();
  });

  it('names a runner by its id where its service account is not known', async () => {
    steps = [planStep(5, null)];
    const card = await openRun();

    expect(
      await within(card).findByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent('on worker-1');
  });

  it('names the runner that ran a step once it ended', async () => {
    const { lease: _lease, ...planned } = planStep(5);
    steps = [
      {
        ...planned,
        status: 'SUCCEEDED',
        runnerId: 'worker-1',
        runnerName: 'Build hosts',
      },
      stepExecution({
        id: 'step-approve',
        pipelineRunId: run.id,
        position: 1,
        name: 'Approve the plan',
        type: 'approval',
        status: 'RUNNING',
      }),
    ];
    const card = await openRun();

    expect(
      await within(card).findByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent('on Build hosts (worker-1)');
    // A step no runner claimed names none.
    expect(
      within(card).getByRole('button', { name: /2\. Approve the plan/ }),
    ).not.toHaveTextContent(' on ');
  });

  it('says that a silent runner’s step will be queued again, when, and as which attempt', async () => {
    steps = [planStep(40)];
    const card = await openRun();

    await waitFor(() => expect(silenceNotice(card)).toBeDefined());
    const notice = silenceNotice(card)!;
    expect(notice).toHaveTextContent(
      /Runner Build hosts \(worker-1\) has sent no heartbeat for 4\ds/,
    );
    expect(notice).toHaveTextContent(
      /Unless it sends a heartbeat within 1\ds, the step is queued again, and the next runner starts it over as attempt 2\. The logs so far stay\./,
    );
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(
      /Build hosts \(worker-1\) has sent no heartbeat for 4\ds/,
    );
  });

  it('says when a reporting runner was last heard from, beside its name', async () => {
    steps = [planStep(15, 'Build hosts', 2)];
    const card = await openRun();

    expect(
      await within(card).findByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(
      /on Build hosts \(worker-1\) · last heard from \d+s ago/,
    );
  });

  it('says of a silent runner whose logs still arrive that it is most likely busy', async () => {
    steps = [planStep(40, 'Build hosts', 3)];
    const card = await openRun();

    await waitFor(() => expect(silenceNotice(card)).toBeDefined());
    expect(silenceNotice(card)).toHaveTextContent(
      /Runner Build hosts \(worker-1\) has sent no heartbeat for \d+s; last heard from \d+s agoIts logs still arrive, so it is most likely busy, but its lease is not renewed\. Unless it sends a heartbeat within/,
    );
  });

  it('says of a silent runner heard from nothing since its heartbeat that it has gone quiet', async () => {
    steps = [planStep(40, 'Build hosts', 40)];
    const card = await openRun();

    const notice = await findNotice(card, /not been heard/);
    expect(notice).toHaveTextContent(
      /^Runner Build hosts \(worker-1\) has not been heard from for \d+sUnless it sends a heartbeat/,
    );
  });

  it('says of a silent runner heard from after its heartbeat, but not since, that it has gone quiet rather than busy', async () => {
    // Killed (kill -9) a few seconds after its last heartbeat: its last log lines came after
    // the heartbeat, and nothing for 35 s since.
    steps = [planStep(40, 'Build hosts', 35)];
    const card = await openRun();

    const notice = await findNotice(card, /^Runner Build hosts \(worker-1\)/);
    expect(notice).toHaveTextContent(
      /^Runner Build hosts \(worker-1\) has not been heard from for 3\dsUnless it sends a heartbeat/,
    );
    expect(notice).not.toHaveTextContent('Its logs still arrive');
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(
      /Build hosts \(worker-1\) has not been heard from for 3\ds/,
    );
  });

  /** The plan step claimed `secondsAgo` seconds ago, heard from `heardAfter` seconds after. */
  function claimedStep(secondsAgo: number, heardAfter: number): StepExecution {
    const step = planStep(secondsAgo, 'Build hosts', secondsAgo - heardAfter);
    return { ...step, lease: { ...step.lease!, claimedAt: step.startedAt } };
  }

  it('says of a runner not heard from since it claimed the step, ten seconds on, that it may be frozen', async () => {
    // Frozen (SIGSTOP) while the service held its claim: the service answered the claim with
    // the step, and nothing has come from the runner since.
    steps = [claimedStep(12, 0)];
    const card = await openRun();

    const notice = await findNotice(
      card,
      /^Runner Build hosts \(worker-1\) took this step/,
    );
    expect(notice).toHaveTextContent(
      /^Runner Build hosts \(worker-1\) took this step 1\ds ago and has not been heard from sinceIt has sent neither a log line nor a heartbeat: it may be frozen, or the answer to its claim was lost with its connection\. Unless it sends a heartbeat within 4\ds, the step is queued again, and the next runner starts it over as attempt 2\./,
    );
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(/Build hosts \(worker-1\) took this step 1\ds ago/);
  });

  it('warns of nothing where the runner was heard from after its claim', async () => {
    // Its first log line came a second after the claim: it is at work.
    steps = [claimedStep(12, 1)];
    expect(await runnerNoticeOnceNamed()).toBeUndefined();
  });

  it('says the step is being queued again once the lease ran out', async () => {
    steps = [planStep(65)];
    const card = await openRun();

    await waitFor(() =>
      expect(silenceNotice(card)).toHaveTextContent(
        'Its lease has run out: the step is being queued again, and the next runner starts it over as attempt 2.',
      ),
    );
  });

  it('takes the warning back once a re-read of the run shows a heartbeat', async () => {
    steps = [planStep(40)];
    const signals = fakeSignals();
    const card = await openRun(signals);
    await waitFor(() => expect(silenceNotice(card)).toBeDefined());

    steps = [planStep(1)];
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: run.id }),
    );

    await waitFor(() => expect(silenceNotice(card)).toBeUndefined());
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent('on Build hosts (worker-1)');
  });

  /** The plan step of a runner that says it renews its lease every five seconds. */
  function beatingStep(secondsAgo: number, heardSecondsAgo: number) {
    const step = planStep(secondsAgo, 'Build hosts', heardSecondsAgo);
    return { ...step, lease: { ...step.lease!, heartbeatIntervalMs: 5_000 } };
  }

  it('says of a runner killed mid-step that it has not been heard from, three of its heartbeat intervals on', async () => {
    // kill -9 a few seconds into a plan: its heartbeats every 5 s stopped 16 s ago, half the
    // lease is still 14 s away.
    steps = [beatingStep(16, 16)];
    const card = await openRun();

    const notice = await findNotice(card, /^Runner Build hosts \(worker-1\)/);
    expect(notice).toHaveTextContent(
      /^Runner Build hosts \(worker-1\) has not been heard from for 1\dsUnless it sends a heartbeat within 4\ds, the step is queued again/,
    );
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(
      /Build hosts \(worker-1\) has not been heard from for 1\ds/,
    );
  });

  it('warns of nothing for a runner whose heartbeats arrive while its tool prints nothing', async () => {
    // Its last log line came minutes ago; its last heartbeat 4 s ago.
    steps = [beatingStep(4, 4)];
    expect(await runnerNoticeOnceNamed()).toBeUndefined();
  });

  it('counts a runner that says its heartbeat interval silent after three of them unheard, at least ten seconds', () => {
    const lease = {
      runnerId: 'worker-1',
      renewedAt: '2026-01-15T10:00:00.000Z',
      expiresAt: '2026-01-15T10:01:00.000Z',
      lastHeardAt: '2026-01-15T10:00:00.000Z',
      heartbeatIntervalMs: 5_000,
    };
    const at = (seconds: number, l: typeof lease = lease) =>
      leaseSilence(l, Date.parse(lease.renewedAt) + seconds * 1000).silent;
    expect(at(15)).toBe(false);
    expect(at(16)).toBe(true);
    // Counted from the later of its heartbeat and its last log append.
    const logged = { ...lease, lastHeardAt: '2026-01-15T10:00:04.000Z' };
    expect(at(19, logged)).toBe(false);
    expect(at(20, logged)).toBe(true);
    // A runner that beats every second is still given ten seconds.
    const fast = { ...lease, heartbeatIntervalMs: 1_000 };
    expect(at(10, fast)).toBe(false);
    expect(at(11, fast)).toBe(true);
    // Logs that keep arriving do not hide that its lease is not renewed.
    const streaming = { ...lease, lastHeardAt: '2026-01-15T10:00:29.000Z' };
    expect(at(30, streaming)).toBe(false);
    expect(at(31, streaming)).toBe(true);
  });

  it('warns of nothing right after the backend came back, until the runner has had its heartbeats to get through', async () => {
    // Its last heartbeat 20 s ago, before the backend went down; the backend answers again
    // since 2 s: it could not hear the runner meanwhile.
    const step = beatingStep(20, 20);
    steps = [
      {
        ...step,
        lease: {
          ...step.lease!,
          serviceReachableSince: new Date(Date.now() - 2_000).toISOString(),
        },
      },
    ];
    expect(await runnerNoticeOnceNamed()).toBeUndefined();
  });

  it('does not count a runner’s silence on while the service answers the run page’s reads with errors', async () => {
    // Heard from 10 s before each read, five seconds short of silent; then the backend goes away.
    server.use(
      http.get(`${baseUrl}/pipeline-runs/${run.id}/step-executions`, () =>
        HttpResponse.json({ data: [beatingStep(10, 10)] }),
      ),
    );
    const signals = fakeSignals();
    const card = await openRun(signals);
    expect(noticeMatching(card, /^Runner/)).toBeUndefined();

    server.use(answeredStarting(`/pipeline-runs/${run.id}/step-executions`));
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: run.id }),
    );
    // Six and a half seconds on, the runner would be unheard for more than 16 s: the page read
    // "has not been heard from" for the minute a restarting backend was down.
    await act(() => new Promise(resolve => setTimeout(resolve, 6_500)));
    expect(noticeMatching(card, /^Runner/)).toBeUndefined();
    expect(
      within(card).getByRole('button', { name: /1\. Plan/ }),
    ).toHaveTextContent(
      /on Build hosts \(worker-1\) · last heard from 1\ds ago/,
    );
  });

  it('judges the runner as of the run’s last answer while the service does not answer', async () => {
    // Heard from 25 s ago; the run page's reload has gone unanswered for 20 s (the backend
    // restarting): as the service knew it, the runner was heard from 5 s before.
    const step = beatingStep(25, 25);
    const asOf = (state: LoadState<unknown>) =>
      renderWithService(
        <DataAsOf state={state}>
          <RunnerSilenceNotice step={step} />
          <StepRunnerCaption step={step} />
        </DataAsOf>,
      );
    await asOf({ loading: true, silentSince: Date.now() - 20_000 });
    expect(screen.queryByRole('status')).toBeNull();
    expect(
      screen.getByText(/on Build hosts \(worker-1\) · last heard from 5s ago/),
    ).toBeInTheDocument();
    cleanup();
    // A reload answered with an error likewise, as of the data it keeps.
    await asOf({
      loading: false,
      reloadFailed: { error: new Error('502'), readAt: Date.now() - 20_000 },
    });
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    // Answered: silent.
    await asOf({ loading: false });
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^Runner Build hosts \(worker-1\) has not been heard from for 2\ds/,
    );
  });

  it('counts the silence of a runner from the service’s return where it came back since', () => {
    const lease = {
      runnerId: 'worker-1',
      renewedAt: '2026-01-15T10:00:00.000Z',
      expiresAt: '2026-01-15T10:01:00.000Z',
      lastHeardAt: '2026-01-15T10:00:00.000Z',
      claimedAt: '2026-01-15T09:59:30.000Z',
      heartbeatIntervalMs: 5_000,
      // Every instance was down from 10:00:03 to 10:00:10.
      serviceReachableSince: '2026-01-15T10:00:10.000Z',
    };
    const at = (seconds: number, l: typeof lease = lease) =>
      leaseSilence(l, Date.parse(lease.renewedAt) + seconds * 1000);
    // Three heartbeat intervals from the return, not from the last heartbeat.
    expect(at(16).silent).toBe(false);
    expect(at(25).silent).toBe(false);
    expect(at(26)).toMatchObject({ silent: true, silentMs: 16_000 });
    // Also for a runner that does not say its interval (half the lease), and for a claim
    // not yet answered when the service went down.
    const { heartbeatIntervalMs: _i, ...older } = lease;
    expect(leaseSilence(older, Date.parse(lease.renewedAt) + 35_000)).toEqual(
      expect.objectContaining({ silent: false, silentMs: 25_000 }),
    );
    const claimedBefore = { ...lease, claimedAt: '2026-01-15T09:59:59.500Z' };
    expect(at(19, claimedBefore).unansweredMs).toBeUndefined();
    expect(at(20, claimedBefore).unansweredMs).toBe(10_000);
  });

  it('counts a runner silent once half its lease passed without a heartbeat', () => {
    const lease = {
      runnerId: 'worker-1',
      renewedAt: '2026-01-15T10:00:00.000Z',
      expiresAt: '2026-01-15T10:01:00.000Z',
    };
    const at = (seconds: number) =>
      leaseSilence(lease, Date.parse(lease.renewedAt) + seconds * 1000);
    expect(at(20)).toEqual({
      silent: false,
      silentMs: 20_000,
      requeueInMs: 40_000,
    });
    expect(at(30).silent).toBe(false);
    expect(at(31)).toEqual({
      silent: true,
      silentMs: 31_000,
      requeueInMs: 29_000,
    });
    expect(at(75).requeueInMs).toBe(-15_000);
  });
});

describe('PipelineRunsContent lists a running run with its runner', () => {
  const { server } = setupInfraDeliveryServer();

  /** The runs list holding `run`, its plan step leased as `planStep(secondsAgo)` says. */
  function listRunLeasedFor(secondsAgo: number) {
    const step = planStep(secondsAgo);
    const leased = {
      ...run,
      leasedStep: { id: step.id, name: step.name, lease: step.lease! },
    };
    server.use(...runPageHandlers(leased, () => [step]));
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));
  }

  const statusCell = async () =>
    (await screen.findByRole('link', { name: run.description }))
      .closest('tr')!
      .querySelector('td')!;

  it('names the step and the runner that runs it', async () => {
    listRunLeasedFor(5);
    const cell = await statusCell();
    expect(cell).toHaveTextContent('Running');
    expect(cell).toHaveTextContent('Plan on Build hosts (worker-1)');
  });

  it('says how long a silent runner has not reported', async () => {
    listRunLeasedFor(40);
    const cell = await statusCell();
    expect(cell).toHaveTextContent(
      /Build hosts \(worker-1\) has sent no heartbeat for 4\ds/,
    );
    expect(cell).not.toHaveTextContent('Plan on Build hosts');
  });

  it('does not count a runner’s silence on while the service answers the list’s reads with errors', async () => {
    // Heard from 10 s before each read, six seconds short of silent; then the backend goes away.
    const step = planStep(10, 'Build hosts', 10);
    const beating = {
      ...step,
      lease: { ...step.lease!, heartbeatIntervalMs: 5_000 },
    };
    const leased = {
      ...run,
      leasedStep: { id: step.id, name: step.name, lease: beating.lease },
    };
    server.use(...runPageHandlers(leased, () => [beating]));
    const signals = fakeSignals();
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      {
        signals: signals.api,
      },
    );
    expect(await statusCell()).toHaveTextContent(
      'Plan on Build hosts (worker-1)',
    );

    server.use(answeredStarting('/pipeline-runs'));
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: run.id }),
    );
    // The list read "has not been heard from" for as long as a restarting backend was down.
    await act(pastSilenceOfRunnerHeard10sBefore);
    const cell = await statusCell();
    expect(cell).not.toHaveTextContent(/heard from/);
    expect(cell).toHaveTextContent('Plan on Build hosts (worker-1)');
  });
});
