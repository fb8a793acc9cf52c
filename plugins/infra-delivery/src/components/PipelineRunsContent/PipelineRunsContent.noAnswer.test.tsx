import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  fakeSignals,
  pipelineRun,
  renderEntityContent,
  runPageHandlers,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { RUN_SIGNAL_CHANNEL } from '@infra-delivery/plugin-infra-delivery-common';
import { LIVE_POLL_MS } from '../common/livePolling';
import { NO_ANSWER_NOTICE_MS } from '../common/silence';
import {
  MovableClock,
  movableClock,
  noAnswerNotice,
} from '../../__testUtils__/unansweredService';
import { PipelineRunsContent } from './PipelineRunsContent';

const waiting = pipelineRun({
  id: 'run-waiting',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'WAITING_FOR_APPROVAL',
  isCancellable: true,
});

/**
 * How the fake service answers: at once, not at all until `answer()` (a frozen backend), or
 * with a failed fetch (a backend that is down).
 */
function serviceState() {
  let mode: 'answers' | 'frozen' | 'down' = 'answers';
  let thaw: (() => void)[] = [];
  return {
    freeze: () => {
      mode = 'frozen';
    },
    down: () => {
      mode = 'down';
    },
    /** Answers what waits and what comes. */
    answer: () => {
      mode = 'answers';
      thaw.forEach(release => release());
      thaw = [];
    },
    /** Holds a request while frozen; a failed fetch while down; undefined: answer it. */
    async gate(): Promise<Response | undefined> {
      if (mode === 'down') return HttpResponse.error();
      if (mode === 'frozen') {
        await new Promise<void>(release => thaw.push(release));
      }
      return undefined;
    },
  };
}

describe('PipelineRunsContent when the service does not answer', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let service: ReturnType<typeof serviceState>;
  let time: MovableClock;
  let signals: ReturnType<typeof fakeSignals>;

  beforeEach(() => {
    service = serviceState();
    time = movableClock();
    signals = fakeSignals();
    const [list, ...runHandlers] = runPageHandlers(waiting, () => []);
    server.use(
      list,
      // Every read of the run's page and its approval pass through the service's state.
      http.all(`${baseUrl}/pipeline-runs/${waiting.id}*`, async () =>
        service.gate(),
      ),
      http.all(`${baseUrl}/iac-execution-summaries`, async () =>
        service.gate(),
      ),
      ...runHandlers,
      http.post(`${baseUrl}/pipeline-runs/${waiting.id}/approve`, () =>
        HttpResponse.json({ data: { ...waiting, status: 'RUNNING' } }),
      ),
    );
  });
  afterEach(() => {
    service.answer();
    time.restore();
  });

  async function openRun() {
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      {
        signals: signals.api,
      },
    );
    await userEvent.click(
      await screen.findByRole('link', { name: waiting.description }),
    );
    const card = await screen.findByRole('region', { name: 'Run details' });
    await within(card).findByRole('button', { name: 'Approve' });
    return card;
  }

  const runReads = () =>
    requestsTo('GET', `/pipeline-runs/${waiting.id}`).length;

  /** The run's page reads again (as on an announcement), and that read is sent. */
  async function readAgain() {
    const reads = runReads();
    signals.announce(RUN_SIGNAL_CHANNEL, { pipelineRunId: waiting.id });
    await waitFor(() => expect(runReads()).toBeGreaterThan(reads));
  }

  it('reads a run waiting for approval again on its own', async () => {
    await openRun();
    const reads = runReads();
    await waitFor(() => expect(runReads()).toBeGreaterThan(reads), {
      timeout: LIVE_POLL_MS + 2_000,
    });
  }, 20_000);

  it('says, counting, that a frozen service has not answered, keeps the run, and stops once it answers', async () => {
    const card = await openRun();
    service.freeze();
    await readAgain();

    time.later(NO_ANSWER_NOTICE_MS - 2_000);
    await new Promise(resolve => setTimeout(resolve, 1_200));
    expect(noAnswerNotice()).toBeUndefined();

    time.later(3_000);
    await waitFor(() => expect(noAnswerNotice()).toBeDefined());
    expect(noAnswerNotice()).toHaveTextContent(
      /^No answer from the infrastructure service for 1\d+s: what you see may be out of date\. Retrying…$/,
    );
    time.later(10_000);
    await waitFor(() =>
      expect(noAnswerNotice()).toHaveTextContent(/ for 2\d+s:/),
    );
    // What was read stays.
    expect(within(card).getByText('Waiting for approval')).toBeInTheDocument();
    expect(
      within(card).getByRole('button', { name: 'Approve' }),
    ).toBeInTheDocument();

    service.answer();
    await waitFor(() => expect(noAnswerNotice()).toBeUndefined());
    expect(within(card).getByText('Waiting for approval')).toBeInTheDocument();
  }, 20_000);

  it('keeps the run while the service is down, says so, and reads again until it answers', async () => {
    const card = await openRun();
    service.down();
    await readAgain();

    time.later(NO_ANSWER_NOTICE_MS + 1_000);
    await waitFor(() => expect(noAnswerNotice()).toBeDefined());
    expect(within(card).getByText('Waiting for approval')).toBeInTheDocument();
    expect(
      within(card).queryByText('Could not reach the infrastructure service'),
    ).not.toBeInTheDocument();

    // Nothing announces the service's return: the page reads again by itself.
    const reads = runReads();
    service.answer();
    await waitFor(() => expect(noAnswerNotice()).toBeUndefined(), {
      timeout: LIVE_POLL_MS + 2_000,
    });
    expect(runReads()).toBeGreaterThan(reads);
  }, 20_000);

  it('lets the Approve dialog be closed once its request goes unanswered, and still says the approval', async () => {
    const card = await openRun();
    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the plan?',
    });
    service.freeze();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Approve' }),
    );

    // Sent, unanswered: greyed, and nothing said yet.
    expect(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    ).toBeDisabled();
    expect(
      within(dialog).getByRole('button', { name: 'Approve' }),
    ).toBeDisabled();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();

    time.later(NO_ANSWER_NOTICE_MS + 1_000);
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        /^The service has not answered for 1\ds\. It may still carry out the request; closing this dialog will not cancel it\.$/,
      ),
    );
    expect(
      within(dialog).getByRole('button', { name: 'Approve' }),
    ).toBeDisabled();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );

    // The approval is answered late: the page says what it did.
    service.answer();
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('status')
          .some(element => /^Approved: /.test(element.textContent ?? '')),
      ).toBe(true),
    );
  }, 20_000);
});
