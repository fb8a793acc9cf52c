import { render, screen } from '@testing-library/react';
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

  it('shows a dash for no time', () => {
    const { container } = render(<Timestamp />);
    expect(container).toHaveTextContent(/^—$/);
  });
});
