import { Entity } from '@backstage/catalog-model';
import { isInfraDeliveryStacksAvailable } from './availability';

function entityWith(annotations?: Record<string, string>): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'network', ...(annotations ? { annotations } : {}) },
    spec: {},
  };
}

describe('isInfraDeliveryStacksAvailable', () => {
  it('is true when the entity names one stack', () => {
    expect(
      isInfraDeliveryStacksAvailable(
        entityWith({ 'infra-delivery.io/stacks': 'stack-1' }),
      ),
    ).toBe(true);
  });

  it('is true when the entity names several stacks, with spaces and stray commas', () => {
    expect(
      isInfraDeliveryStacksAvailable(
        entityWith({ 'infra-delivery.io/stacks': ' stack-1 , ,stack-2,' }),
      ),
    ).toBe(true);
  });

  it('is false without annotations', () => {
    expect(isInfraDeliveryStacksAvailable(entityWith())).toBe(false);
  });

  it('is false when only other annotations are present', () => {
    expect(
      isInfraDeliveryStacksAvailable(
        entityWith({
          'infra-delivery.io/project': 'project-1',
          'backstage.io/source-location': 'url:https://example.test/repo',
        }),
      ),
    ).toBe(false);
  });

  it('is false when the annotation names no id', () => {
    expect(
      isInfraDeliveryStacksAvailable(
        entityWith({ 'infra-delivery.io/stacks': '' }),
      ),
    ).toBe(false);
    expect(
      isInfraDeliveryStacksAvailable(
        entityWith({ 'infra-delivery.io/stacks': ' , ,  ' }),
      ),
    ).toBe(false);
  });
});
