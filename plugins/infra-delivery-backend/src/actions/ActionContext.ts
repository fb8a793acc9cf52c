import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { toBackstageError } from '../errors';
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
