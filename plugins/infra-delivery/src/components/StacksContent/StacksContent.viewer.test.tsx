import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  list,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { findWaitingForRunnerNotice } from '../../__testUtils__/waitingForRunnerNotice';
import { StacksContent } from './StacksContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('StacksContent for a VIEWER whom the permission policy allows', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });
  const network = stack({ id: 'stack-network', name: 'Network' });

  it('hides the actions the VIEWER role may not take', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList([network]),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
    });

    expect(await screen.findByText('Network')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Plan & apply' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      screen.queryByRole('button', { name: 'Destroy' }),
    ).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: /^Details of / }),
    ).toBeInTheDocument();
    // Nothing to press: no empty column either.
    expect(
      screen.queryByRole('columnheader', { name: 'Actions' }),
    ).not.toBeInTheDocument();
  });

  it('shows a VIEWER the stack’s settings in its drawer, without a way to change or delete the stack', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList([{ ...network, path: 'infra/network' }]),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
      initialRouteEntries: [`/?stack=${network.id}`],
    });

    const drawer = await screen.findByRole('dialog', { name: 'Network' });
    const settings = within(drawer).getByRole('region', { name: 'Settings' });
    expect(within(settings).getByText('infra/network')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).not.toHaveLength(0));
    await waitFor(() =>
      expect(
        within(drawer).queryByRole('button', { name: 'Edit settings' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      within(drawer).queryByRole('button', { name: 'Delete stack' }),
    ).not.toBeInTheDocument();
  });

  it('tells a VIEWER that a run waits for a runner, without offering to connect one', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList([network]),
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-1',
              attachedEntityId: network.id,
              status: 'RUNNING',
              queueState: {
                preflightBlockedByAdmissionCondition: false,
                stackRunPreflightPending: false,
                waitingForRunner: true,
                reason: 'No runner is connected to this organization',
              },
            }),
          ]),
        ),
      ),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
    });

    const notice = await findWaitingForRunnerNotice();
    expect(
      await within(notice).findByText(/An organization admin can connect one/),
    ).toBeInTheDocument();
    expect(
      within(notice).queryByRole('button', { name: 'Connect a runner' }),
    ).not.toBeInTheDocument();
  });
});
