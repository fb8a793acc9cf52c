import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  errorResponse,
  list,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
  stack,
  stackList,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StacksContent } from './StacksContent';

jest.setTimeout(20_000);

describe('deleting a stack from its drawer', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const network = stack({ id: 'stack-network', name: 'Network' });
  const database = stack({ id: 'stack-database', name: 'Database' });
  let stacks: Stack[];

  /** The service with Network's resource count and latest runs as given. */
  function serve({
    resources = 0,
    runs = [],
  }: { resources?: number; runs?: PipelineRun[] } = {}) {
    stacks = [network, database];
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({
          data: {
            counts: resources
              ? [{ stackId: network.id, count: resources }]
              : [],
          },
        }),
      ),
      stackList(() => stacks),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list(runs))),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
      http.delete<{ id: string }>(`${baseUrl}/stacks/:id`, ({ params }) => {
        stacks = stacks.filter(s => s.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
  }

  const openDrawer = async () => {
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { initialRouteEntries: [`/?stack=${network.id}`] },
    );
    return screen.findByRole('dialog', { name: 'Network' });
  };

  const openConfirmation = async (drawer: HTMLElement) => {
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Delete stack' }),
    );
    return screen.findByRole('dialog', { name: 'Delete Network?' });
  };

  it('deletes a stack that manages nothing after a confirmation saying the cloud is left alone, then closes the drawer', async () => {
    serve();
    const drawer = await openDrawer();
    const confirm = await openConfirmation(drawer);
    expect(
      within(confirm).getByText(/with its change and destroy pipelines/),
    ).toBeInTheDocument();
    expect(
      within(confirm).getByText(/Nothing in the cloud is touched/),
    ).toBeInTheDocument();
    // Irreversible: the name must be typed first.
    const deleteIt = within(confirm).getByRole('button', {
      name: 'Delete the stack',
    });
    expect(deleteIt).toBeDisabled();
    await userEvent.type(
      within(confirm).getByLabelText('Type Network to confirm'),
      'Network',
    );
    await userEvent.click(deleteIt);

    await waitFor(() =>
      expect(requestsTo('DELETE', `/stacks/${network.id}`)).toHaveLength(1),
    );
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Network' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      await screen.findByText(/^Network is deleted, with its pipelines/),
    ).toBeInTheDocument();
    // Its row goes, though the entity's annotation still names it; the others stay.
    expect(
      screen.queryByRole('button', { name: 'Details of Network' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByText(/was not found/)).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Details of Database' }),
    ).toBeInTheDocument();
  });

  it('points to Destroy first while the stack still manages resources', async () => {
    serve({ resources: 12 });
    const drawer = await openDrawer();
    const deleteStack = await within(drawer).findByRole('button', {
      name: 'Delete stack',
    });
    await waitFor(() => expect(deleteStack).toBeDisabled());
    const reason =
      'Network still manages 12 resources: destroy them first with Destroy (its destroy pipeline), then delete the stack.';
    expect(within(drawer).getByText(reason)).toBeInTheDocument();
    await userEvent.hover(deleteStack.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: reason }),
    ).toBeInTheDocument();
  });

  it('says a stack whose run waits for approval cannot be deleted until the run ends', async () => {
    serve({
      runs: [
        pipelineRun({
          id: 'run-network-1',
          attachedEntityId: network.id,
          pipelineId: network.changePipelineId,
          status: 'WAITING_FOR_APPROVAL',
        }),
      ],
    });
    const drawer = await openDrawer();
    expect(
      await within(drawer).findByRole('button', { name: 'Delete stack' }),
    ).toBeDisabled();
    expect(
      within(drawer).getByText(
        'Network has a run that has not ended: cancel it or let it end, then delete the stack.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the service’s refusal in the confirmation and keeps the stack', async () => {
    serve();
    server.use(
      http.delete(`${baseUrl}/stacks/:id`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:Stack:NOT_EMPTY',
          message:
            'The stack still holds 3 resources; run its destroy pipeline first',
          requestId: 'req-1',
        }),
      ),
    );
    const drawer = await openDrawer();
    const confirm = await openConfirmation(drawer);
    await userEvent.type(
      within(confirm).getByLabelText('Type Network to confirm'),
      'Network{Enter}',
    );

    expect(
      await within(confirm).findByText(
        'The stack still holds 3 resources; run its destroy pipeline first',
      ),
    ).toBeInTheDocument();
    expect(
      within(confirm).getByText('Error: Delete stack failed'),
    ).toBeInTheDocument();
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Cancel' }),
    );
    expect(await screen.findByRole('dialog', { name: 'Network' })).toBe(drawer);
    expect(screen.queryByText(/is deleted/)).not.toBeInTheDocument();
  });

  it('offers no deletion on a stack’s own page, whose page would be left without it', async () => {
    serve();
    renderEntityContent(<StacksContent />, {
      ...entityNaming(network.id),
      kind: 'Resource',
      spec: { type: 'iac-stack', owner: 'team-a' },
    });
    // Greyed while the permissions are read, then offered.
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Edit settings' }),
      ).toBeEnabled(),
    );
    expect(
      screen.queryByRole('button', { name: 'Delete stack' }),
    ).not.toBeInTheDocument();
  });
});
