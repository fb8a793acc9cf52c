import {
  IacExecutionSummary,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { nextStepWord, planCounts } from './RunActions';

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

describe('nextStepWord', () => {
  const step = (
    position: number,
    type: StepExecution['type'],
    status: StepExecution['status'],
  ) => ({ position, type, status } as StepExecution);

  it('names the step after the approval that waits', () => {
    expect(
      nextStepWord([
        step(2, 'iac.destroy', 'PENDING'),
        step(0, 'iac.plan', 'SUCCEEDED'),
        step(1, 'approval', 'WAITING_FOR_APPROVAL'),
      ]),
    ).toBe('destroy');
    expect(
      nextStepWord([
        step(0, 'iac.plan', 'SUCCEEDED'),
        step(1, 'approval', 'WAITING_FOR_APPROVAL'),
        step(2, 'iac.apply', 'PENDING'),
      ]),
    ).toBe('apply');
  });

  it("says what the run's pipeline does when its steps are not known", () => {
    expect(nextStepWord([], 'Destroy')).toBe('destroy');
    expect(nextStepWord([], 'Plan & apply')).toBe('apply');
    expect(nextStepWord([])).toBeUndefined();
  });
});
