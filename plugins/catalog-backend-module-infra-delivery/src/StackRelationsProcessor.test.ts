import { StackRelationsProcessor } from './StackRelationsProcessor';

describe('StackRelationsProcessor', () => {
  it('makes a component depend on the stacks its annotation names', async () => {
    const emit = jest.fn();
    const entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: 'payments-api',
        annotations: { 'infra-delivery.io/stacks': 'a1, b2' },
      },
      spec: {},
    };
    await new StackRelationsProcessor().postProcessEntity(
      entity,
      {} as never,
      emit,
    );
    const relations = emit.mock.calls.map(([r]) => [
      r.relation.source.name,
      r.relation.type,
      r.relation.target.name,
    ]);
    expect(relations).toEqual([
      ['payments-api', 'dependsOn', 'stack-a1'],
      ['stack-a1', 'dependencyOf', 'payments-api'],
      ['payments-api', 'dependsOn', 'stack-b2'],
      ['stack-b2', 'dependencyOf', 'payments-api'],
    ]);
  });

  it('leaves other kinds alone', async () => {
    const emit = jest.fn();
    await new StackRelationsProcessor().postProcessEntity(
      {
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Resource',
        metadata: {
          name: 'x',
          annotations: { 'infra-delivery.io/stacks': 'a1' },
        },
      },
      {} as never,
      emit,
    );
    expect(emit).not.toHaveBeenCalled();
  });
});
