import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { fieldErrorsOf } from './fieldErrors';

const refused = (...items: string[]) =>
  new InfraDeliveryApiError(400, {
    code: 'InfraDelivery:Request:VALIDATION_FAILED',
    message: 'The request body is not valid',
    details: [{ title: 'Validation issues', render: 'list', items }],
  });

describe('fieldErrorsOf', () => {
  it('words each issue for the field it names', () => {
    expect(
      fieldErrorsOf(
        refused(
          'body.data.name: Too big: expected string to have <=255 characters',
          'body.data.baseUrl: Invalid URL',
        ),
        ['name', 'baseUrl', 'clientId'],
      ),
    ).toEqual({
      name: 'At most 255 characters',
      baseUrl: 'Not a URL (https://…)',
    });
  });

  it('says beside the name that another service account has it', () => {
    const taken = new InfraDeliveryApiError(409, {
      code: 'InfraDelivery:ServiceAccount:NAME_TAKEN',
      message: 'A service account named "Runner" exists already',
    });
    expect(fieldErrorsOf(taken, ['name', 'role'])).toEqual({
      name: 'In use: choose another name',
    });
    expect(fieldErrorsOf(taken, ['email'])).toBeUndefined();
  });

  it('leaves to the error panel what names no field of the form', () => {
    expect(
      fieldErrorsOf(refused('body.data.role: Invalid option'), ['name']),
    ).toBeUndefined();
    expect(
      fieldErrorsOf(
        new InfraDeliveryApiError(409, {
          code: 'InfraDelivery:ServiceAccount:CONFLICT',
          message: 'Taken',
        }),
        ['name'],
      ),
    ).toBeUndefined();
    expect(
      fieldErrorsOf(new TypeError('Failed to fetch'), ['name']),
    ).toBeUndefined();
  });
});
