import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { awsRegion } from '../../__testUtils__/moduleFixtures';
import {
  fieldsOf,
  refusedDefaultValueFieldsOf,
  schemaOf,
} from './defaultValueForm';

const refusal = (status: number, code: string, items: string[] = []) =>
  new InfraDeliveryApiError(status, {
    code,
    message: 'Refused',
    requestId: 'r1',
    details: items.length
      ? [{ title: 'Problems', render: 'list', items }]
      : undefined,
  });

describe('schemaOf', () => {
  it('renames the label with the definition where it was its name, and keeps a label of its own', () => {
    const named = {
      ...awsRegion,
      schema: { ...awsRegion.schema, label: 'AWS region' },
    };
    expect(
      schemaOf({ ...fieldsOf(named), name: 'Cloud region' }, named).label,
    ).toBe('Cloud region');
    expect(
      schemaOf({ ...fieldsOf(awsRegion), name: 'Cloud region' }, awsRegion)
        .label,
    ).toBe('Region');
  });

  it('drops the default and the allowed values once emptied', () => {
    expect(
      schemaOf(
        { ...fieldsOf(awsRegion), value: ' ', allowedValues: '\n' },
        awsRegion,
      ),
    ).toEqual({ id: 'region', label: 'Region', type: 'string' });
  });
});

describe('refusedDefaultValueFieldsOf', () => {
  it('puts the issues of the schema beside the fields that make it', () => {
    expect(
      refusedDefaultValueFieldsOf(
        refusal(400, 'InfraDelivery:Request:VALIDATION_FAILED', [
          'body.data.givenId: lowercase letters, digits and inner dashes',
          'body.data.schema.default: Ends with /16',
          'body.data.schema.values.1.value: Too big: expected string to have <=64 characters',
        ]),
      ),
    ).toEqual({
      givenId: 'lowercase letters, digits and inner dashes',
      value: 'Ends with /16',
      allowedValues: 'At most 64 characters',
    });
  });

  it('leaves to a panel what names no field, or is no refusal of the request', () => {
    expect(
      refusedDefaultValueFieldsOf(
        refusal(400, 'InfraDelivery:Request:VALIDATION_FAILED', [
          'body.data.name: Required',
          'body.data.schema.show_when: Invalid input',
        ]),
      ),
    ).toBeUndefined();
    expect(
      refusedDefaultValueFieldsOf(
        refusal(403, 'InfraDelivery:Auth:INSUFFICIENT_ROLE'),
      ),
    ).toBeUndefined();
    expect(
      refusedDefaultValueFieldsOf(
        refusal(409, 'InfraDelivery:DefaultValueDefinition:GIVEN_ID_TAKEN'),
      ),
    ).toEqual({ givenId: 'Refused' });
  });
});
