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
  it('shows three outputs, those of one value first, and counts the others', () => {
    render(<StackOutputsSummary output={fiveOutputs} />);
    expect(screen.getAllByText(/ = /).map(line => line.textContent)).toEqual([
      'region = eu-west-1',
      'vpc_id = vpc-0abc',
      'instances = 3',
    ]);
    expect(screen.getByText('and 2 more')).toBeInTheDocument();
  });

  it('shows a list by its items and a map by its keys, the whole value on hover', () => {
    render(
      <StackOutputsSummary
        output={{
          subnets: ['10.20.0.0/20', '10.20.16.0/20'],
          alarms: { cpu: 'CPUUtilization', errors: '5XX' },
          rules: [{ port: 443 }],
        }}
      />,
    );
    expect(
      screen.getByText('subnets = 10.20.0.0/20, 10.20.16.0/20'),
    ).toHaveAttribute('title', 'subnets = ["10.20.0.0/20","10.20.16.0/20"]');
    expect(screen.getByText('alarms = { cpu, errors }')).toHaveAttribute(
      'title',
      'alarms = {"cpu":"CPUUtilization","errors":"5XX"}',
    );
    expect(screen.getByText('rules = 1 item')).toBeInTheDocument();
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
      '[\n  "10.20.0.0/20",\n  "10.20.16.0/20"\n]',
      '{\n  "enabled": true\n}',
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
