import { render, screen } from '@testing-library/react';
import { StartedAndTook } from './StartedAndTook';

const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000).toISOString();

describe('StartedAndTook', () => {
  it('says a queued run has not started, and since when it is queued', () => {
    const { container } = render(<StartedAndTook at={minutesAgo(3)} />);

    expect(container).toHaveTextContent('Not startedqueued 3 minutes ago');
    // In a column kept on one line the caption may still break, after "queued" only.
    const caption = screen.getByText(/^queued/);
    expect(caption).toHaveStyle({ whiteSpace: 'normal' });
    expect(screen.getByText('3 minutes ago').closest('span')).toHaveStyle({
      whiteSpace: 'nowrap',
    });
  });

  it('says a run cancelled in the queue never started', () => {
    render(<StartedAndTook at={minutesAgo(10)} completedAt={minutesAgo(2)} />);

    expect(screen.getByText('Never started')).toBeInTheDocument();
  });

  it('shows when a run started and how long it took', () => {
    const { container } = render(
      <StartedAndTook
        at={minutesAgo(5)}
        startedAt={minutesAgo(5)}
        completedAt={minutesAgo(4)}
      />,
    );

    expect(container).toHaveTextContent('5 minutes ago');
    expect(container).toHaveTextContent('took 1m');
    expect(container).not.toHaveTextContent('started');
  });
});
