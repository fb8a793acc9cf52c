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
import { PipelineRunsContent } from './PipelineRunsContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('PipelineRunsContent when the permission policy denies running pipelines', () => {
  const { server } = setupInfraDeliveryServer();

  const runs = [
    pipelineRun({
      id: 'run-waiting',
      description: 'Apply network changes',
      attachedEntityId: 'stack-network',
      status: 'WAITING_FOR_APPROVAL',
      isCancellable: true,
    }),
    pipelineRun({
      id: 'run-failed',
      description: 'Upgrade database',
      attachedEntityId: 'stack-network',
      status: 'FAILED',
    }),
  ];

  it('shows runs and their details without any action', async () => {
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
    const asked: string[] = [];
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      { authorize: 'DENY', onAuthorize: name => asked.push(name) },
    );

    for (const run of runs) {
      // Back to the list from the run shown before, if any.
      const allRuns = screen.queryByRole('link', { name: 'All runs' });
      if (allRuns) await userEvent.click(allRuns);
      await userEvent.click(
        await screen.findByRole('link', { name: run.description }),
      );
      const card = await screen.findByRole('region', { name: 'Run details' });
      await waitFor(() =>
        expect(within(card).queryByTestId('progress')).not.toBeInTheDocument(),
      );
      await waitFor(() =>
        expect(asked).toContain('infra-delivery.run.execute'),
      );

      for (const action of ['Approve', 'Reject', 'Cancel run', 'Retry']) {
        expect(
          screen.queryByRole('button', { name: action }),
        ).not.toBeInTheDocument();
      }
    }
  });
});
