import { render, screen, within } from '@testing-library/react';
import { StackOutputsSection, StackOutputsSummary } from './StackOutputs';

const fiveOutputs = {
  region: 'eu-west-1',
  vpc_id: 'vpc-0abc',
  subnets: ['10.20.0.0/20', '10.20.16.0/20'],
  nat: { enabled: true },
  instances: 3,
};

describe('StackOutputsSummary', () => {
  it('shows the first three outputs and counts the others', () => {
    render(<StackOutputsSummary output={fiveOutputs} />);
    expect(screen.getByTitle('region = eu-west-1')).toBeInTheDocument();
    expect(screen.getByTitle('vpc_id = vpc-0abc')).toBeInTheDocument();
    expect(
      screen.getByTitle('subnets = ["10.20.0.0/20","10.20.16.0/20"]'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^nat =/)).not.toBeInTheDocument();
    expect(screen.getByText('and 2 more')).toBeInTheDocument();
  });

  it('shows a dash for a stack without outputs', () => {
    const { container } = render(<StackOutputsSummary output={{}} />);
    expect(container).toHaveTextContent(/^—$/);
  });
});

describe('StackOutputsSection', () => {
  it('names every output with its whole value', () => {
    render(<StackOutputsSection output={fiveOutputs} />);
    const section = screen.getByRole('region', { name: 'Outputs' });
    const values = within(section)
      .getAllByRole('definition')
      .map(value => value.textContent);
    expect(values).toEqual([
      'eu-west-1',
      'vpc-0abc',
      '["10.20.0.0/20","10.20.16.0/20"]',
      '{"enabled":true}',
      '3',
    ]);
    expect(
      within(section)
        .getAllByRole('term')
        .map(name => name.textContent),
    ).toEqual(['region', 'vpc_id', 'subnets', 'nat', 'instances']);
  });

  it('is left out for a stack without outputs', () => {
    const { container } = render(<StackOutputsSection output={undefined} />);
    expect(container).toBeEmptyDOMElement();
  });
});
