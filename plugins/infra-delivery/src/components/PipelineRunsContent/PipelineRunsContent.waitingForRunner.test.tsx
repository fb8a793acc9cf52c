import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  list,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  findWaitingForRunnerNotice,
  queryWaitingForRunnerNotice,
} from '../../__testUtils__/waitingForRunnerNotice';
import { PipelineRunsContent } from './PipelineRunsContent';

const reason = 'No runner is connected to this organization';
const waitingForRunner = pipelineRun({
  id: 'run-no-runner',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'RUNNING',
  isCancellable: true,
  queueState: {
    preflightBlockedByAdmissionCondition: false,
    stackRunPreflightPending: false,
    waitingForRunner: true,
    reason,
  },
});
const succeeded = pipelineRun({
  id: 'run-done',
  description: 'Upgrade database',
  attachedEntityId: 'stack-network',
  status: 'SUCCEEDED',
});

describe('PipelineRunsContent when a run waits for a runner', () => {
  const { server } = setupInfraDeliveryServer({ role: 'ADMIN' });

  function serveRuns(runs: PipelineRun[]) {
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list(runs))),
      http.get<{ id: string }>(`${baseUrl}/pipeline-runs/:id`, ({ params }) =>
        HttpResponse.json({ data: runs.find(run => run.id === params.id) }),
      ),
      http.get(`${baseUrl}/pipeline-runs/:id/step-executions`, () =>
        HttpResponse.json({ data: [] }),
      ),
      http.get(`${baseUrl}/iac-execution-summaries`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
    );
  }

  async function openRun(run: PipelineRun) {
    // Back to the list from the run shown before, if any.
    const allRuns = screen.queryByRole('link', { name: 'All runs' });
    if (allRuns) await userEvent.click(allRuns);
    await userEvent.click(
      await screen.findByRole('link', { name: run.description }),
    );
    return await screen.findByRole('region', { name: 'Run details' });
  }

  it('says above the runs why they wait and how to start a runner', async () => {
    serveRuns([waitingForRunner, succeeded]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    const notice = await findWaitingForRunnerNotice();
    expect(notice).toHaveTextContent(`${reason}.`);
    expect(
      within(notice).getByLabelText('Command that starts a runner'),
    ).toHaveValue(
      // Pasted as it is, it runs: the placeholder is quoted, and the runner says the key is not valid.
      `INFRA_DELIVERY_RUNNER_TOKEN='<api key of a runner service account>' npx @infra-delivery/runner --url ${baseUrl} --iac-binary tofu`,
    );
    expect(
      await within(notice).findByRole('button', { name: 'Connect a runner' }),
    ).toBeInTheDocument();

    // The row says so too.
    const row = screen.getByText('Apply network changes').closest('tr')!;
    expect(within(row).getByText(reason)).toBeInTheDocument();
    expect(within(row).getByText('Waiting for a runner')).toBeInTheDocument();
  });

  it('says when runners are online but none carries the labels the stack requires, and starts one with them', async () => {
    const labelsReason =
      "No connected runner has the labels env=prod this stack requires; 2 runners are online (labels: env=dev | none). Start a runner with --labels env=prod, or change the stack's required runner labels";
    serveRuns([
      {
        ...waitingForRunner,
        queueState: {
          ...waitingForRunner.queueState!,
          reason: labelsReason,
          requiredRunnerLabels: ['env=prod'],
        },
      },
    ]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    const notice = await findWaitingForRunnerNotice();
    expect(
      within(notice).getByText('Waiting for a runner with labels env=prod'),
    ).toBeInTheDocument();
    expect(notice).toHaveTextContent(`${labelsReason}.`);
    expect(
      within(notice).getByLabelText('Command that starts a runner'),
    ).toHaveValue(
      `INFRA_DELIVERY_RUNNER_TOKEN='<api key of a runner service account>' npx @infra-delivery/runner --url ${baseUrl} --iac-binary tofu --labels env=prod`,
    );
    const row = screen.getByText('Apply network changes').closest('tr')!;
    expect(within(row).getByText(labelsReason)).toBeInTheDocument();
  });

  it('opens the Connect a runner dialog from the notice', async () => {
    serveRuns([waitingForRunner]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    const notice = await findWaitingForRunnerNotice();
    await userEvent.click(
      await within(notice).findByRole('button', { name: 'Connect a runner' }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Connect a runner',
    });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Runner');
  });

  it("shows the notice in the waiting run's details, and not in another run's", async () => {
    serveRuns([waitingForRunner, succeeded]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    const waitingCard = await openRun(waitingForRunner);
    expect(await findWaitingForRunnerNotice(waitingCard)).toHaveTextContent(
      reason,
    );
    // Its status, not "Running" while nothing runs it.
    expect(
      within(waitingCard).getAllByText('Waiting for a runner').length,
    ).toBeGreaterThan(1);
    expect(within(waitingCard).queryByText('Running')).not.toBeInTheDocument();

    const doneCard = await openRun(succeeded);
    await waitFor(() =>
      expect(
        within(doneCard).queryByTestId('progress'),
      ).not.toBeInTheDocument(),
    );
    await within(doneCard).findByText('Succeeded');
    expect(queryWaitingForRunnerNotice(doneCard)).toBeNull();
  });

  it('says that the connected runners are busy, with no notice to start one', async () => {
    const busy =
      'Queued for a runner: the one connected runner is busy with another step';
    const waitingForBusyRunner = {
      ...waitingForRunner,
      queueState: {
        ...waitingForRunner.queueState!,
        waitingForRunner: false,
        reason: busy,
      },
    };
    serveRuns([succeeded, waitingForBusyRunner]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    expect(await screen.findByText('Upgrade database')).toBeInTheDocument();
    expect(queryWaitingForRunnerNotice()).toBeNull();
    const row = screen.getByText('Apply network changes').closest('tr')!;
    expect(within(row).getByText('Waiting for a runner')).toBeInTheDocument();
    expect(within(row).getByText(busy)).toBeInTheDocument();

    // The run's page says so under its status, where it read "Running" with a queued step.
    const card = await openRun(waitingForBusyRunner);
    expect(await within(card).findByText(busy)).toBeInTheDocument();
    expect(within(card).queryByText('Running')).not.toBeInTheDocument();
    expect(queryWaitingForRunnerNotice(card)).toBeNull();
  });
  it('says that a free runner has gone silent, with the notice to start another', async () => {
    const silent =
      'Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 25s; it may have stopped (killed, or its host lost)';
    const waitingForSilentRunner = {
      ...waitingForRunner,
      queueState: {
        ...waitingForRunner.queueState!,
        waitingForRunner: false,
        runnersSilent: true,
        reason: silent,
      },
    };
    serveRuns([succeeded, waitingForSilentRunner]);
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));

    const notice = await findWaitingForRunnerNotice();
    expect(notice).toHaveTextContent(
      `${silent}. The run continues as soon as a runner claims its next step.`,
    );
    expect(
      within(notice).getByLabelText('Command that starts a runner'),
    ).toBeInTheDocument();
    const row = screen.getByText('Apply network changes').closest('tr')!;
    expect(within(row).getByText(silent)).toBeInTheDocument();

    const card = await openRun(waitingForSilentRunner);
    expect(await findWaitingForRunnerNotice(card)).toHaveTextContent(silent);
  });
});
