import { screen } from '@testing-library/react';
import {
  pipelineRun,
  renderWithService,
} from '../../__testUtils__/infraDeliveryTestKit';
import { WhyItWaits } from './WhyItWaits';

const names = {
  stackName: (id?: string) =>
    ({ 'stack-network': 'Network', 'stack-vpc': 'Shared VPC' }[id ?? '']),
};
const heldBy = (blockingEntityId: string) =>
  pipelineRun({
    id: 'run-2',
    attachedEntityId: 'stack-network',
    status: 'QUEUED',
    queueReason: 'Held: stack Network is busy with run run-1',
    queueState: {
      preflightBlockedByAdmissionCondition: true,
      stackRunPreflightPending: false,
      waitingForRunner: false,
      blockingRunId: 'run-1',
      blockingEntityId,
    },
  });

describe('WhyItWaits', () => {
  it('calls the run’s own stack "the stack" and links the run that holds it', async () => {
    await renderWithService(
      <WhyItWaits
        run={heldBy('stack-network')}
        names={names}
        runPath={id => `/runs/${id}`}
      />,
    );
    expect(document.body).toHaveTextContent(
      'Held: the stack is busy with another run',
    );
    expect(screen.getByRole('link', { name: 'another run' })).toHaveAttribute(
      'href',
      '/runs/run-1',
    );
  });

  it('names another stack that holds the run', async () => {
    await renderWithService(
      <WhyItWaits
        run={heldBy('stack-vpc')}
        names={names}
        runPath={() => undefined}
      />,
    );
    expect(document.body).toHaveTextContent(
      'Held: Shared VPC is busy with another run',
    );
    expect(
      screen.getByRole('link', { name: 'Shared VPC' }),
    ).toBeInTheDocument();
    // Without a run page, the run is named without a link.
    expect(
      screen.queryByRole('link', { name: 'another run' }),
    ).not.toBeInTheDocument();
  });
});
