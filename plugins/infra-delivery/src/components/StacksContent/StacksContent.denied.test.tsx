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
import { StacksContent } from './StacksContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('StacksContent when the permission policy denies running pipelines', () => {
  const { server } = setupInfraDeliveryServer();

  const network = stack({ id: 'stack-network', name: 'Network' });
  const database = stack({ id: 'stack-database', name: 'Database' });

  it('offers the details but no action that changes infrastructure', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({
          data: { counts: [{ stackId: network.id, count: 4 }] },
        }),
      ),
      stackList([network, database]),
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-1',
              attachedEntityId: network.id,
              status: 'FAILED',
            }),
          ]),
        ),
      ),
    );
    const asked: string[] = [];

    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { authorize: 'DENY', onAuthorize: name => asked.push(name) },
    );

    const networkRow = (await screen.findByText('Network')).closest('tr')!;
    expect(within(networkRow).getByText('Failed')).toBeInTheDocument();
    expect(await screen.findByText('Database')).toBeInTheDocument();
    await waitFor(() => expect(asked).toContain('infra-delivery.run.execute'));

    expect(
      screen.getAllByRole('button', { name: /^Details of / }),
    ).toHaveLength(2);
    expect(
      screen.queryByRole('button', { name: /^Plan & apply / }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /^Destroy / }),
    ).not.toBeInTheDocument();
  });
});
