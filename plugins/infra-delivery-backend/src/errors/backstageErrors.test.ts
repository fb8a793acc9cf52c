import {
  ConflictError,
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { fromBackstageError, toBackstageError } from './backstageErrors';
import { InfraDeliveryError } from './InfraDeliveryError';

function serviceError(status: InfraDeliveryError['status']) {
  return new InfraDeliveryError({
    status,
    entity: 'Stack',
    reason: 'REASON',
    message: 'It went wrong',
  });
}

describe('backstageErrors', () => {
  it('answers a Backstage error with the status and code of its row', () => {
    const answered = fromBackstageError(new ConflictError('Taken'));
    expect(answered).toBeInstanceOf(InfraDeliveryError);
    expect(answered?.status).toBe(409);
    expect(answered?.toBody()).toMatchObject({
      code: 'InfraDelivery:Resource:CONFLICT',
      message: 'Taken',
    });
    expect(fromBackstageError(new Error('plain'))).toBeUndefined();
  });

  it('hands a service error on as the Backstage error of its status, code in the message', () => {
    const cases: Array<[InfraDeliveryError['status'], Function]> = [
      [400, InputError],
      [422, InputError],
      [404, NotFoundError],
      [409, ConflictError],
      [429, ServiceUnavailableError],
      [503, ServiceUnavailableError],
    ];
    for (const [status, expected] of cases) {
      const handed = toBackstageError(serviceError(status)) as Error;
      expect(handed).toBeInstanceOf(expected);
      expect(handed.message).toBe('It went wrong (InfraDelivery:Stack:REASON)');
    }
    const internal = serviceError(500);
    expect(toBackstageError(internal)).toBe(internal);
  });

  it('round-trips every Backstage error it knows', () => {
    for (const error of [
      new InputError('a'),
      new NotFoundError('b'),
      new ServiceUnavailableError('c'),
    ]) {
      const handed = toBackstageError(fromBackstageError(error)) as Error;
      expect(handed.name).toBe(error.name);
    }
  });
});
