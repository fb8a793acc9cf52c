import { changesOfPlanJson, planDifferences } from './approvedPlan';

const change = (address: string, actions: string[], importing?: object) => ({
  address,
  change: { actions, ...(importing ? { importing } : {}) },
});

describe('comparing a plan with the approved one', () => {
  it('takes the changes of a plan by address, leaving out what leaves resources be', () => {
    const changes = changesOfPlanJson({
      resource_changes: [
        change('aws_vpc.main', ['create']),
        change('aws_subnet.a', ['delete', 'create']),
        change('aws_subnet.b', ['no-op']),
        change('data.aws_ami.ubuntu', ['read']),
        change('aws_s3_bucket.logs', ['no-op'], { id: 'logs' }),
      ],
    });
    expect([...changes]).toEqual([
      ['aws_vpc.main', 'CREATE'],
      ['aws_subnet.a', 'REPLACE'],
      ['aws_s3_bucket.logs', 'IMPORT'],
    ]);
    expect(changesOfPlanJson({}).size).toBe(0);
  });

  it('says what differs for each resource, in address order', () => {
    const approved = new Map([
      ['aws_vpc.main', 'UPDATE' as const],
      ['aws_subnet.a', 'CREATE' as const],
      ['aws_subnet.b', 'DELETE' as const],
    ]);
    const now = new Map([
      ['aws_vpc.main', 'REPLACE' as const],
      ['aws_subnet.b', 'DELETE' as const],
      ['aws_route.extra', 'CREATE' as const],
    ]);
    expect(planDifferences(approved, now)).toEqual([
      'aws_route.extra: no change approved, create now',
      'aws_subnet.a: create approved, no change now',
      'aws_vpc.main: update approved, replace now',
    ]);
    expect(planDifferences(approved, new Map(approved))).toEqual([]);
  });
});
