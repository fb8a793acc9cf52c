import {
  DefaultValueDefinition,
  InfraDeliveryApiError,
  ModuleInput,
} from '@infra-delivery/plugin-infra-delivery-common';
import { needsValue, valueErrorsOf, valueProblem } from './moduleValues';

const definition = (
  givenId: string,
  defaultValue?: string,
): DefaultValueDefinition => ({
  id: `dv-${givenId}`,
  organizationId: 'org-1',
  givenId,
  name: givenId,
  createdByType: 'USER',
  schema: {
    id: givenId,
    label: givenId,
    type: 'string',
    default: defaultValue,
  },
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
});

const input = (overrides: Partial<ModuleInput>): ModuleInput => ({
  id: 'region',
  label: 'Region',
  type: 'string',
  ...overrides,
});

describe('needsValue', () => {
  const defaults = new Map([
    ['aws-region', definition('aws-region', 'eu-west-1')],
    ['no-default', definition('no-default')],
  ]);

  it('asks for a required input only where no default fills it', () => {
    expect(needsValue(input({ required: true }), defaults)).toBe(true);
    expect(
      needsValue(input({ required: true, default: 'eu-west-1' }), defaults),
    ).toBe(false);
    expect(
      needsValue(
        input({ required: true, default_from: 'aws-region' }),
        defaults,
      ),
    ).toBe(false);
    // A definition without a default, or one the portal does not know, fills nothing.
    expect(
      needsValue(
        input({ required: true, default_from: 'no-default' }),
        defaults,
      ),
    ).toBe(true);
    expect(
      needsValue(input({ required: true, default_from: 'unknown' }), defaults),
    ).toBe(true);
    expect(needsValue(input({ required: true, default: '' }), defaults)).toBe(
      true,
    );
    expect(needsValue(input({}), defaults)).toBe(false);
  });
});

describe('valueProblem', () => {
  it('checks patterns as the service does, Unicode classes included', () => {
    const letters = input({
      patterns: [{ pattern: '^\\p{L}+$', message: 'Letters only' }],
    });
    expect(valueProblem(letters, 'Zürich')).toBeUndefined();
    expect(valueProblem(letters, 'zone-1')).toBe('Letters only');
    expect(valueProblem(letters, '')).toBeUndefined();
  });

  it('refuses a value that is not one of the allowed ones', () => {
    const sized = input({ values: [{ value: 'small' }, { value: 'large' }] });
    expect(valueProblem(sized, 'medium')).toBe(
      '"medium" is not one of the allowed values ("small", "large")',
    );
  });
});

describe('valueErrorsOf', () => {
  const refusal = (items: string[]) =>
    new InfraDeliveryApiError(400, {
      code: 'InfraDelivery:ModuleInstance:INVALID_VALUES',
      message: 'Invalid values',
      requestId: 'req-1',
      details: [{ title: 'Invalid values', render: 'list', items }],
    });

  it('puts each refused value beside its input, or nothing when one names no input', () => {
    expect(
      valueErrorsOf(refusal(['values.cidr: is required']), ['cidr']),
    ).toEqual({ cidr: 'Is required' });
    expect(
      valueErrorsOf(
        refusal(['values.cidr: is required', 'values.colour: is not an input']),
        ['cidr'],
      ),
    ).toBeUndefined();
  });
});
