import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  fakeSignals,
  iacResource,
  list,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StacksContent } from '../StacksContent';

jest.setTimeout(20_000);

const checkedAt = new Date(Date.now() - 10 * 60_000).toISOString();

const drifted = stack({
  id: 'stack-network',
  name: 'Network',
  driftCheckIntervalHours: 1,
  driftStatus: 'DRIFTED',
  driftedResourceCount: 1,
  lastDriftCheckAt: checkedAt,
  lastDriftCheckRunId: 'run-check',
});
const inSync = stack({
  id: 'stack-database',
  name: 'Database',
  driftCheckIntervalHours: 24,
  driftStatus: 'IN_SYNC',
  driftedResourceCount: 0,
  lastDriftCheckAt: checkedAt,
});
const unwatched = stack({ id: 'stack-cache', name: 'Cache' });
const stacksById: Record<string, Stack> = Object.fromEntries(
  [drifted, inSync, unwatched].map(s => [s.id, s]),
);

describe('drift on the Stacks tab', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList(() => Object.values(stacksById)),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/iac-resources`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        if (query.get('pipelineRunId') !== 'run-check') {
          return HttpResponse.json(list([]));
        }
        return HttpResponse.json(
          list([
            iacResource({
              id: 'res-drifted',
              address: 'aws_security_group.web',
              changeKind: 'UPDATE',
              runType: 'PLAN',
              vendorData: {
                before: { ingress: ['0.0.0.0/0:22'] },
                after: { ingress: [] },
              },
            }),
            iacResource({
              id: 'res-same',
              address: 'aws_vpc.main',
              changeKind: 'NO_OP',
              runType: 'PLAN',
            }),
          ]),
        );
      }),
      http.post<{ id: string }>(
        `${baseUrl}/stacks/:id/reconcile`,
        ({ params }) =>
          HttpResponse.json(
            {
              data: pipelineRun({
                id: 'run-reconcile',
                pipelineId: stacksById[params.id].changePipelineId,
                attachedEntityId: params.id,
                status: 'QUEUED',
                triggerSource: 'DRIFT_RECONCILE',
                reconciledDriftCheckRunId: 'run-check',
              }),
            },
            { status: 201 },
          ),
      ),
    );
  });

  const rowOf = async (name: string) =>
    (await screen.findByText(name)).closest('tr')!;

  it('shows each stack’s drift and filters the table by it', async () => {
    renderEntityContent(
      <StacksContent />,
      entityNaming([drifted.id, inSync.id, unwatched.id].join(',')),
    );

    // The number of drifted resources goes under the status: the column stays narrow.
    const network = await rowOf('Network');
    expect(within(network).getByText('Drifted')).toBeInTheDocument();
    expect(within(network).getByText('1 resource')).toBeInTheDocument();
    expect(within(await rowOf('Database')).getByText('In sync')).toBeVisible();
    expect(within(await rowOf('Cache')).getByText('Not checked')).toBeVisible();

    // The filter is in the header of the stacks' card, not a card of its own above it.
    const filter = screen.getByRole('button', {
      name: 'Filter by drift: All stacks',
    });
    const stacksCard = screen
      .getByRole('heading', { name: 'Stacks' })
      .closest('.MuiCard-root')!;
    expect(stacksCard.querySelector('.MuiCardHeader-root')).toContainElement(
      filter,
    );
    expect(stacksCard).toContainElement(network);
    await userEvent.click(filter);
    await userEvent.click(
      await screen.findByRole('option', { name: 'Drifted' }),
    );

    await waitFor(() =>
      expect(screen.queryByText('Database')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Network')).toBeInTheDocument();
    expect(screen.queryByText('Cache')).not.toBeInTheDocument();
  });

  it('shows what drifted in the drawer and reconciles it through the change pipeline', async () => {
    renderEntityContent(<StacksContent />, entityNaming(drifted.id));

    await userEvent.click(
      within(await rowOf('Network')).getByRole('button', {
        name: /^Details of /,
      }),
    );
    const drawer = await screen.findByRole('presentation');
    const section = within(drawer).getByRole('region', { name: 'Drift' });
    expect(within(section).getByText('Checked every hour')).toBeInTheDocument();
    const resource = await within(section).findByRole('button', {
      name: /Update: aws_security_group\.web/,
    });
    // Only what drifted is listed, not the resources the check left unchanged.
    expect(
      within(section).queryByText(/aws_vpc\.main/),
    ).not.toBeInTheDocument();
    await userEvent.click(resource);
    expect(await within(section).findByText(/0\.0\.0\.0\/0:22/)).toBeVisible();

    await userEvent.click(
      within(section).getByRole('button', { name: 'Reconcile' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Reconcile the drift of Network?',
    });
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Reconcile' }),
    );

    await waitFor(() =>
      expect(
        requestsTo('POST', `/stacks/${drifted.id}/reconcile`),
      ).toHaveLength(1),
    );
    // Said in the drawer, which covers the page's own message.
    expect(
      await within(
        await screen.findByRole('dialog', { name: 'Network' }),
      ).findByText(
        'A reconciling plan is queued behind the stack’s current run.',
      ),
    ).toBeInTheDocument();
  });

  it('says up front that a drift check waits for the stack’s open run, instead of failing once confirmed', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({
          data: { counts: [{ stackId: drifted.id, count: 4 }] },
        }),
      ),
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-waiting',
              description: 'Raise the alert thresholds',
              attachedEntityId: drifted.id,
              pipelineId: drifted.changePipelineId,
              status: 'WAITING_FOR_APPROVAL',
            }),
          ]),
        ),
      ),
    );
    renderEntityContent(<StacksContent />, entityNaming(drifted.id));

    await userEvent.click(
      within(await rowOf('Network')).getByRole('button', {
        name: /^Details of /,
      }),
    );
    const section = within(await screen.findByRole('presentation')).getByRole(
      'region',
      { name: 'Drift' },
    );
    const reason =
      'The stack is busy: “Raise the alert thresholds” waits for approval. A drift check cannot start until that run ends.';
    expect(await within(section).findByText(reason)).toBeVisible();
    const check = within(section).getByRole('button', {
      name: 'Check for drift',
    });
    expect(check).toBeDisabled();
    await userEvent.hover(check.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(reason);
    expect(requestsTo('POST', `/stacks/${drifted.id}/drift-checks`)).toEqual(
      [],
    );
  });

  it('offers no drift filter over a single stack', async () => {
    renderEntityContent(<StacksContent />, entityNaming(drifted.id));

    expect(await rowOf('Network')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /^Filter by drift/ }),
    ).not.toBeInTheDocument();
  });

  it('shows in the open drawer what a reload of the table found', async () => {
    const signals = fakeSignals();
    renderEntityContent(<StacksContent />, entityNaming(inSync.id), {
      signals: signals.api,
    });
    await userEvent.click(
      within(await rowOf('Database')).getByRole('button', {
        name: /^Details of /,
      }),
    );
    const section = within(await screen.findByRole('presentation')).getByRole(
      'region',
      { name: 'Drift' },
    );
    expect(within(section).getByText('In sync')).toBeInTheDocument();

    // A drift check finished meanwhile, and the backend says so.
    stacksById[inSync.id] = {
      ...inSync,
      driftStatus: 'DRIFTED',
      driftedResourceCount: 1,
      lastDriftCheckRunId: 'run-check',
    };
    try {
      act(() =>
        signals.announce('infra-delivery:pipeline-runs', {
          runId: 'run-check',
        }),
      );
      expect(await within(section).findByText(/Drifted/)).toBeInTheDocument();
    } finally {
      stacksById[inSync.id] = inSync;
    }
  });
});
