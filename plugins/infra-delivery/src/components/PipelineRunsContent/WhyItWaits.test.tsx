import { screen } from '@testing-library/react';
import {
  pipelineRun,
  renderWithService,
} from '../../__testUtils__/infraDeliveryTestKit';
import { WhyItWaits } from './WhyItWaits';

const held = pipelineRun({
  id: 'run-2',
  attachedEntityId: 'stack-network',
  status: 'QUEUED',
  queueReason: 'Held: stack Network is busy with run run-1',
  queueState: {
    preflightBlockedByAdmissionCondition: true,
    stackRunPreflightPending: false,
    waitingForRunner: false,
    blockingRunId: 'run-1',
    blockingEntityId: 'stack-network',
  },
});

describe('WhyItWaits', () => {
  it('says the stack is busy and links the run that holds it', async () => {
    await renderWithService(
      <WhyItWaits run={held} runPath={id => `/runs/${id}`} />,
    );
    expect(document.body).toHaveTextContent(
      'Held: the stack is busy with another run',
    );
    expect(screen.getByRole('link', { name: 'another run' })).toHaveAttribute(
      'href',
      '/runs/run-1',
    );
  });

  it('names the run without a link where the app has no run page', async () => {
    await renderWithService(
      <WhyItWaits run={held} runPath={() => undefined} />,
    );
    expect(document.body).toHaveTextContent(
      'Held: the stack is busy with another run',
    );
    expect(
      screen.queryByRole('link', { name: 'another run' }),
    ).not.toBeInTheDocument();
  });

  it('says nothing of a run that no longer waits, though it keeps its queue state', async () => {
    await renderWithService(
      <WhyItWaits
        run={{ ...held, status: 'CANCELLED' }}
        runPath={id => `/runs/${id}`}
      />,
    );
    expect(document.body).not.toHaveTextContent(/Held|busy/);
  });
});
