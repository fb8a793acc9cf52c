import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  fakeSignals,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { useNavigate } from 'react-router-dom';
import { PipelineRunsContent } from './PipelineRunsContent';

/** 120 runs of one stack, newest first, served page by page as the service pages them. */
const runs = Array.from({ length: 120 }, (_, i) =>
  pipelineRun({
    id: `run-${i + 1}`,
    attachedEntityId: 'stack-a',
    description: `Change ${i + 1}`,
  }),
);

// Pages of 50 rows are rendered several times per test.
jest.setTimeout(30_000);

describe('PipelineRunsContent paging', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const listRequests = () => requestsTo('GET', '/pipeline-runs');

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        const limit = Number(query.get('limit'));
        const offset = Number(query.get('cursor') ?? 0);
        const next = offset + limit < runs.length ? offset + limit : null;
        return HttpResponse.json({
          data: runs.slice(offset, offset + limit),
          meta: {
            limit,
            nextCursor: next === null ? null : String(next),
            totalCount: runs.length,
          },
        });
      }),
    );
  });

  it('shows progress until the first page arrives', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, async () => {
        await answered;
        return HttpResponse.json({
          data: [],
          meta: { limit: 50, totalCount: 0 },
        });
      }),
    );
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'));
    expect(await screen.findByRole('progressbar')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('No runs yet.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // One page holds everything: no paging controls.
    expect(
      screen.queryByRole('button', { name: 'Older' }),
    ).not.toBeInTheDocument();
  });

  it('shows a page of runs at a time and walks to older and newer pages', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'));

    expect(await screen.findByText('Runs 1–50 of 120')).toBeInTheDocument();
    expect(screen.getByText('Change 50')).toBeInTheDocument();
    expect(screen.queryByText('Change 51')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();
    expect(listRequests()[0].query.get('limit')).toBe('50');
    expect(listRequests()[0].query.has('cursor')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();
    expect(screen.getByText('Change 51')).toBeInTheDocument();
    expect(listRequests()[1].query.get('cursor')).toBe('50');

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Runs 101–120 of 120')).toBeInTheDocument();
    expect(screen.getByText('Change 120')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();
    expect(listRequests()[3].query.get('cursor')).toBe('50');
  });

  it('leads back from a run to the page of the list it was opened from', async () => {
    server.use(
      http.get(`${baseUrl}/pipeline-runs/:id`, ({ params }) =>
        HttpResponse.json({ data: runs.find(run => run.id === params.id) }),
      ),
    );
    const BrowserBack = () => {
      const navigate = useNavigate();
      return <button onClick={() => navigate(-1)}>Browser back</button>;
    };
    renderEntityContent(
      <>
        <PipelineRunsContent />
        <BrowserBack />
      </>,
      entityNaming('stack-a'),
      { initialRouteEntries: ['/?status=SUCCEEDED'] },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Older' }));
    await userEvent.click(
      await screen.findByRole('link', { name: 'Change 60' }),
    );
    await userEvent.click(
      await screen.findByRole('link', { name: 'All runs' }),
    );

    // The second page of the filtered list again, not the newest runs.
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change 60' })).toBeInTheDocument();
    let last = listRequests()[listRequests().length - 1];
    expect(last.query.get('cursor')).toBe('50');
    expect(last.query.getAll('status')).toEqual(['SUCCEEDED']);
    // Newer still leads to the newest page.
    expect(screen.getByRole('button', { name: 'Newer' })).toBeEnabled();

    // The browser's Back from a run's page too.
    await userEvent.click(screen.getByRole('link', { name: 'Change 70' }));
    expect(
      await screen.findByRole('link', { name: 'All runs' }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();
    last = listRequests()[listRequests().length - 1];
    expect(last.query.get('cursor')).toBe('50');
  }, 60_000);

  it('leads back to the newest runs when the service no longer takes the page’s cursor', async () => {
    server.use(
      http.get(`${baseUrl}/pipeline-runs/:id`, ({ params }) =>
        HttpResponse.json({ data: runs.find(run => run.id === params.id) }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'));
    await userEvent.click(await screen.findByRole('button', { name: 'Older' }));
    await userEvent.click(
      await screen.findByRole('link', { name: 'Change 60' }),
    );
    // The backend restarted with another key meanwhile: the second page's cursor is refused.
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) =>
        new URL(request.url).searchParams.get('cursor')
          ? HttpResponse.json(
              {
                code: 'InfraDelivery:Request:INVALID_CURSOR',
                message:
                  'The cursor is not valid for this query; start again without a cursor',
                requestId: 'req-1',
              },
              { status: 400 },
            )
          : HttpResponse.json({
              data: runs.slice(0, 50),
              meta: { limit: 50, nextCursor: '50', totalCount: runs.length },
            }),
      ),
    );
    await userEvent.click(
      await screen.findByRole('link', { name: 'All runs' }),
    );

    expect(await screen.findByText('Runs 1–50 of 120')).toBeInTheDocument();
    expect(screen.queryByText(/cursor is not valid/)).not.toBeInTheDocument();
    expect(
      listRequests()[listRequests().length - 1].query.get('cursor'),
    ).toBeNull();
  }, 60_000);

  it('shows progress over the list shown while another filter’s list loads, keeping it in place', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'));
    expect(await screen.findByText('Runs 1–50 of 120')).toBeInTheDocument();
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, async () => {
        await answered;
        return HttpResponse.json({
          data: [runs[7]],
          meta: { limit: 50, totalCount: 1 },
        });
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Failed' }));

    // The list shown stays, busy, under a named progress bar; its paging waits.
    expect(
      await screen.findByRole('progressbar', { name: 'Loading runs' }),
    ).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByText('Change 1')).toBeInTheDocument();
    expect(table.closest('[aria-busy="true"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();

    answer();

    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('Change 8')).toBeInTheDocument();
    expect(screen.queryByText('Change 1')).not.toBeInTheDocument();
    expect(screen.getByRole('table').closest('[aria-busy="true"]')).toBeNull();
  });

  it('shows no progress while the list shown is read again', async () => {
    const signals = fakeSignals();
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'), {
      signals: signals.api,
    });
    expect(await screen.findByText('Runs 1–50 of 120')).toBeInTheDocument();
    const loads = listRequests().length;

    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-1' }),
    );

    await waitFor(() => expect(listRequests()).toHaveLength(loads + 1));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('goes back to the newest page when the status filter changes', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'));
    await userEvent.click(await screen.findByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Failed' }));

    expect(await screen.findByText('Runs 1–50 of 120')).toBeInTheDocument();
    const last = listRequests()[listRequests().length - 1];
    expect(last.query.getAll('status')).toEqual(['FAILED']);
    expect(last.query.has('cursor')).toBe(false);
  });

  it('reloads the page shown when a run changes', async () => {
    const signals = fakeSignals();
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-a'), {
      signals: signals.api,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Runs 51–100 of 120')).toBeInTheDocument();
    const loads = listRequests().length;

    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-60' }),
    );

    await waitFor(() => expect(listRequests()).toHaveLength(loads + 1));
    expect(listRequests()[loads].query.get('cursor')).toBe('50');
  });
});
