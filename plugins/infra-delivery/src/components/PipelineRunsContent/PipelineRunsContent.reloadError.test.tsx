import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import {
  baseUrl,
  entityNaming,
  errorResponse,
  fakeSignals,
  pipelineRun,
  renderEntityContent,
  runPageHandlers,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { RUN_SIGNAL_CHANNEL } from '@infra-delivery/plugin-infra-delivery-common';
import { PipelineRunsContent } from './PipelineRunsContent';

const waiting = pipelineRun({
  id: 'run-waiting',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'WAITING_FOR_APPROVAL',
  isCancellable: true,
});

describe('PipelineRunsContent when a reload of the run is answered with an error', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let signals: ReturnType<typeof fakeSignals>;
  /** The status the service answers the run's reads with (undefined: the run itself). */
  let failWith: number | undefined;

  beforeEach(() => {
    failWith = undefined;
    signals = fakeSignals();
    const [list, ...runHandlers] = runPageHandlers(waiting, () => []);
    server.use(
      list,
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}`, () =>
        failWith === undefined
          ? undefined
          : errorResponse(failWith, {
              code:
                failWith === 404
                  ? 'InfraDelivery:PipelineRun:NOT_FOUND'
                  : 'InfraDelivery:Internal:ERROR',
              message:
                failWith === 404
                  ? `Pipeline run ${waiting.id} not found`
                  : 'The database did not answer in time',
              requestId: 'req-42',
            }),
      ),
      ...runHandlers,
    );
  });

  /** The run's page, opened from the runs list: its card. */
  async function openRunPage() {
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      { signals: signals.api },
    );
    await userEvent.click(
      await screen.findByRole('link', { name: waiting.description }),
    );
    return screen.findByRole('region', { name: 'Run details' });
  }

  /** The run's page, once it shows the run. */
  async function openRun() {
    const card = await openRunPage();
    await within(card).findByRole('button', { name: 'Approve' });
    return card;
  }

  /** The run's page reads again (as on an announcement), and that read is answered. */
  async function readAgain() {
    const reads = requestsTo('GET', `/pipeline-runs/${waiting.id}`).length;
    signals.announce(RUN_SIGNAL_CHANNEL, { pipelineRunId: waiting.id });
    await waitFor(() =>
      expect(
        requestsTo('GET', `/pipeline-runs/${waiting.id}`).length,
      ).toBeGreaterThan(reads),
    );
  }

  const failedNote = (card: HTMLElement) =>
    within(card)
      .queryAllByRole('status')
      .find(element => /^Could not read this again/.test(element.textContent!));

  it.each([403, 500, 502, 503])(
    'keeps the run under a note of what went wrong after a %i, and drops the note once a reload succeeds',
    async status => {
      const card = await openRun();
      failWith = status;
      await readAgain();

      await waitFor(() => expect(failedNote(card)).toBeDefined());
      const note = failedNote(card)!;
      // The service's message on a line of its own, then how old what is shown is.
      expect(
        within(note).getByText('The database did not answer in time'),
      ).toBeInTheDocument();
      expect(
        within(note).getByText(/^What you see was read/),
      ).toHaveTextContent(
        /^What you see was read (now|\d+ seconds? ago) and may be out of date\. Trying again… Request id: req-42$/,
      );
      // What was read stays, and no error panel stands in its place.
      expect(
        within(card).getByText('Waiting for approval'),
      ).toBeInTheDocument();
      expect(
        within(card).getByRole('button', { name: 'Approve' }),
      ).toBeInTheDocument();
      expect(within(card).queryByRole('alert')).not.toBeInTheDocument();

      failWith = undefined;
      await readAgain();
      await waitFor(() => expect(failedNote(card)).toBeUndefined());
      expect(
        within(card).getByText('Waiting for approval'),
      ).toBeInTheDocument();
    },
    20_000,
  );

  it('says the run is gone when a reload is answered 404, instead of showing it', async () => {
    const card = await openRun();
    failWith = 404;
    await readAgain();

    expect(
      await within(card).findByText(/Not found in your organization/),
    ).toBeInTheDocument();
    expect(
      within(card).getByText(`Pipeline run ${waiting.id} not found`),
    ).toBeInTheDocument();
    expect(
      within(card).queryByText('Waiting for approval'),
    ).not.toBeInTheDocument();
    expect(
      within(card).queryByRole('button', { name: 'Approve' }),
    ).not.toBeInTheDocument();
  }, 20_000);

  it('shows the error panel when the first load is answered with an error', async () => {
    failWith = 500;
    const card = await openRunPage();
    expect(
      await within(card).findByText(
        /The infrastructure service answered with an error/,
      ),
    ).toBeInTheDocument();
    expect(failedNote(card)).toBeUndefined();
  }, 20_000);
});
