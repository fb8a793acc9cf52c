import { operations } from '@internal/plugin-infra-delivery-common';
import { clientAddressBucket as clientAddress } from '../auth/clientAddress';
import { RouteContext } from './RouteContext';

export function registerAuthRoutes({
  bind,
  services,
  rateLimiter,
  rateLimits,
}: RouteContext) {
  bind(operations.signup, async ({ body, req }) => {
    await rateLimiter.consume(
      'signup',
      clientAddress(req),
      rateLimits.signupsPerAddress,
    );
    return { data: await services.identity.signup(body.data) };
  });

  bind(operations.createAccessToken, async ({ body, req }) => {
    await rateLimiter.consume(
      'token-address',
      clientAddress(req),
      rateLimits.tokenAttemptsPerAddress,
    );
    await rateLimiter.consume(
      'token-email',
      body.data.email,
      rateLimits.tokenAttemptsPerEmail,
    );
    return { data: await services.identity.createAccessToken(body.data) };
  });
}
