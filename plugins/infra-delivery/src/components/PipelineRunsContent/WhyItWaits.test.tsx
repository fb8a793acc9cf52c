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

  it('names the run that holds the stack, and what keeps it, where the view has it', async () => {
    await renderWithService(
      <WhyItWaits
        run={held}
        runPath={id => `/runs/${id}`}
        blocker={{
          title: 'Raise the alert thresholds',
          status: 'WAITING_FOR_APPROVAL',
        }}
      />,
    );
    expect(document.body).toHaveTextContent(
      'Waits for Raise the alert thresholds, which waits for approval',
    );
    expect(
      screen.getByRole('link', { name: 'Raise the alert thresholds' }),
    ).toHaveAttribute('href', '/runs/run-1');
  });

  it('falls back to "another run" once the holding run has ended', async () => {
    await renderWithService(
      <WhyItWaits
        run={held}
        runPath={id => `/runs/${id}`}
        blocker={{ title: 'Old run', status: 'SUCCEEDED' }}
      />,
    );
    expect(document.body).toHaveTextContent(
      'Held: the stack is busy with another run',
    );
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
