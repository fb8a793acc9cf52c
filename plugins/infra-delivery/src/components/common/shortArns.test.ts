import { shortArns, taskDefinitionName } from './shortArns';

describe('shortArns', () => {
  it('names a task definition by its family and revision, and leaves the rest alone', () => {
    expect(
      shortArns(
        'Service update to arn:aws:ecs:eu-west-1:111111111111:task-definition/payments-api-fail:45 accepted',
      ),
    ).toBe('Service update to payments-api-fail:45 accepted');
    expect(
      shortArns('Role arn:aws:iam::111111111111:role/deployer assumed'),
    ).toBe('Role arn:aws:iam::111111111111:role/deployer assumed');
  });
});

describe('taskDefinitionName', () => {
  it('names a task definition by its family and revision', () => {
    expect(
      taskDefinitionName({
        ref: 'arn:aws:ecs:eu-west-1:111122223333:task-definition/payments-api-fail:45',
        revision: 45,
      }),
    ).toBe('payments-api-fail:45');
  });

  it('names it by its revision where its reference is no ARN', () => {
    expect(taskDefinitionName({ ref: 'payments', revision: 3 })).toBe(
      'revision 3',
    );
  });
});
