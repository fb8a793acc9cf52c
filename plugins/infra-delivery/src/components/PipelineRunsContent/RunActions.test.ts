import { IacExecutionSummary } from '@infra-delivery/plugin-infra-delivery-common';
import { planCounts } from './RunActions';

const plan = (
  counts: Partial<
    Pick<
      IacExecutionSummary,
      'addCount' | 'changeCount' | 'replaceCount' | 'destroyCount'
    >
  >,
) =>
  ({
    addCount: 0,
    changeCount: 0,
    replaceCount: 0,
    destroyCount: 0,
    ...counts,
  } as IacExecutionSummary);

describe('planCounts', () => {
  it('names only the changes a plan makes', () => {
    expect(planCounts(plan({ changeCount: 3 }))).toBe(
      'The plan changes 3 resources.',
    );
    expect(
      planCounts(plan({ addCount: 5, changeCount: 1, destroyCount: 2 })),
    ).toBe('The plan adds 5, changes 1 and destroys 2 resources.');
    expect(planCounts(plan({ addCount: 2, replaceCount: 1 }))).toBe(
      'The plan adds 2 and replaces 1 resource.',
    );
  });

  it('says so when the plan changes nothing', () => {
    expect(planCounts(plan({}))).toBe('The plan changes no resources.');
  });
});
