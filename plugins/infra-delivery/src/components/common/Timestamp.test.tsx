import { act, render, screen } from '@testing-library/react';
import { Timestamp } from './Timestamp';

describe('Timestamp', () => {
  it('says how long ago, on one line, with the exact time in a time element', () => {
    const value = new Date(Date.now() - 6 * 60_000).toISOString();
    render(<Timestamp value={value} />);
    const time = screen.getByText('6 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('datetime', value);
    expect(time).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('counts the seconds of its first minute, as a running duration beside it does', () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-15T10:00:10.000Z') });
    try {
      render(<Timestamp value="2026-01-15T10:00:00.000Z" />);
      expect(screen.getByText('10 seconds ago')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(5_000));
      expect(screen.getByText('15 seconds ago')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(60_000));
      expect(screen.getByText('1 minute ago')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows a dash for no time', () => {
    const { container } = render(<Timestamp />);
    expect(container).toHaveTextContent(/^—$/);
  });
});
