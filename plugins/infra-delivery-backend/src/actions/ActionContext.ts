import { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { InfraDeliveryError } from '../errors';
import { Services } from '../services';

/** What every tool acts through: the services, and the caller of the registry's credentials. */
export interface ActionContext {
  services: Services;
  authorizer: Authorizer;
  /** Runs `fn` as the caller of the credentials, with the service's errors translated. */
  asCaller<T>(
    credentials: BackstageCredentials,
    fn: (caller: Caller) => Promise<T>,
  ): Promise<T>;
}

/** The service's own errors as the ones the actions registry answers with a status. */
function toBackstageError(error: unknown): unknown {
  if (!(error instanceof InfraDeliveryError)) {
    return error;
  }
  const message = `${error.message} (${error.code})`;
  switch (error.status) {
    case 400:
    case 422:
      return new InputError(message);
    case 401:
      return new AuthenticationError(message);
    case 403:
      return new NotAllowedError(message);
    case 404:
      return new NotFoundError(message);
    case 409:
      return new ConflictError(message);
    case 429:
    case 503:
      return new ServiceUnavailableError(message);
    default:
      return error;
  }
}

export function createActionContext(options: {
  services: Services;
  authorizer: Authorizer;
  callers: {
    fromCredentials(credentials: BackstageCredentials): Promise<Caller>;
  };
}): ActionContext {
  const { services, authorizer, callers } = options;
  return {
    services,
    authorizer,
    async asCaller(credentials, fn) {
      try {
        return await fn(await callers.fromCredentials(credentials));
      } catch (error) {
        throw toBackstageError(error);
      }
    },
  };
}
