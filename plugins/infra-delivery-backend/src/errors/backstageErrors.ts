import {
  AuthenticationError,
  ConflictError,
  InputError,
  isError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { ErrorStatus, InfraDeliveryError } from './InfraDeliveryError';

/**
 * The one table between `@backstage/errors` and this service's statuses. The HTTP error
 * handler reads it by name (a Backstage error thrown into a route), the MCP actions by status
 * (a service error handed to the actions registry). The first status of a row is the one a
 * Backstage error is answered with; the others map onto the same Backstage error.
 */
const BACKSTAGE_ERRORS: ReadonlyArray<{
  BackstageError: new (message: string) => Error;
  name: string;
  statuses: readonly [ErrorStatus, ...ErrorStatus[]];
  entity: string;
  reason: string;
}> = [
  {
    BackstageError: InputError,
    name: 'InputError',
    statuses: [400, 422],
    entity: 'Request',
    reason: 'INVALID_INPUT',
  },
  {
    BackstageError: AuthenticationError,
    name: 'AuthenticationError',
    statuses: [401],
    entity: 'Auth',
    reason: 'UNAUTHENTICATED',
  },
  {
    BackstageError: NotAllowedError,
    name: 'NotAllowedError',
    statuses: [403],
    entity: 'Auth',
    reason: 'FORBIDDEN',
  },
  {
    BackstageError: NotFoundError,
    name: 'NotFoundError',
    statuses: [404],
    entity: 'Resource',
    reason: 'NOT_FOUND',
  },
  {
    BackstageError: ConflictError,
    name: 'ConflictError',
    statuses: [409],
    entity: 'Resource',
    reason: 'CONFLICT',
  },
  {
    BackstageError: ServiceUnavailableError,
    name: 'ServiceUnavailableError',
    statuses: [503, 429],
    entity: 'Service',
    reason: 'UNAVAILABLE',
  },
];

/** A `@backstage/errors` error as the service answers it; undefined for any other error. */
export function fromBackstageError(
  error: unknown,
): InfraDeliveryError | undefined {
  const row = isError(error)
    ? BACKSTAGE_ERRORS.find(r => r.name === error.name)
    : undefined;
  return row
    ? new InfraDeliveryError({
        status: row.statuses[0],
        entity: row.entity,
        reason: row.reason,
        message: (error as Error).message,
      })
    : undefined;
}

/**
 * A service error as the `@backstage/errors` error of its status, its code kept in the
 * message; other errors, and statuses without a Backstage error (500), pass unchanged.
 */
export function toBackstageError(error: unknown): unknown {
  if (!(error instanceof InfraDeliveryError)) {
    return error;
  }
  const row = BACKSTAGE_ERRORS.find(r => r.statuses.includes(error.status));
  return row
    ? new row.BackstageError(`${error.message} (${error.code})`)
    : error;
}
