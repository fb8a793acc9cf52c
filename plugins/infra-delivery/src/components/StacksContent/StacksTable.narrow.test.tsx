import { screen, within } from '@testing-library/react';
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
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';
import { StacksContent } from './StacksContent';

const network = stack({
  id: 'stack-network',
  name: 'Network',
  givenId: 'network',
  output: { vpc_id: 'vpc-0abc' },
});
const database = stack({ id: 'stack-database', name: 'Database' });

describe('StacksContent in a narrow window', () => {
  const { server } = setupInfraDeliveryServer();
  let restoreWidth = () => {};

  beforeEach(() => {
    server.use(
      stackList([network, database]),
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({
          data: {
            counts: [
              { stackId: network.id, count: 12 },
              { stackId: database.id, count: 1 },
            ],
          },
        }),
      ),
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-network-2',
              attachedEntityId: network.id,
              status: 'SUCCEEDED',
            }),
          ]),
        ),
      ),
    );
  });
  afterEach(() => restoreWidth());

  const headers = () =>
    screen.getAllByRole('columnheader').map(header => header.textContent);

  const renderStacks = async () => {
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );
    return (await screen.findByText('Network')).closest('tr') as HTMLElement;
  };

  // A 900 px window beside the sidebar: six columns scrolled sideways and cut the actions.
  it('puts the resources under the drift and leaves the outputs to the details', async () => {
    restoreWidth = fakeContainerWidth(640);
    const row = await renderStacks();
    expect(headers()).toEqual(['Stack', 'Latest run', 'Drift', 'Actions']);
    expect(within(row).getByText('12 resources in all')).toBeInTheDocument();
    expect(within(row).queryByText(/vpc-0abc/)).not.toBeInTheDocument();
    const databaseRow = screen.getByText('Database').closest('tr')!;
    expect(
      within(databaseRow).getByText('1 resource in all'),
    ).toBeInTheDocument();
  });

  it('keeps a column for each where there is room', async () => {
    restoreWidth = fakeContainerWidth(1100);
    const row = await renderStacks();
    expect(headers()).toEqual([
      'Stack',
      'Latest run',
      'Drift',
      'Resources',
      'Outputs',
      'Actions',
    ]);
    expect(within(row).getByText('12')).toBeInTheDocument();
    expect(
      within(row).queryByText('12 resources in all'),
    ).not.toBeInTheDocument();
  });
});
