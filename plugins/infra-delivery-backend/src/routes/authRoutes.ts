import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { clientAddressBucket as clientAddress } from '../auth/clientAddress';
import { InfraDeliveryError } from '../errors';
import { RouteContext } from './RouteContext';

export function registerAuthRoutes({
  bind,
  services,
  rateLimiter,
  rateLimits,
  passwordGuesses,
}: RouteContext) {
  bind(operations.signup, async ({ body, req }) => {
    await rateLimiter.consume(
      'signup',
      clientAddress(req),
      rateLimits.signupsPerAddress,
    );
    if (!body.data.invitationToken) {
      return { data: await services.identity.signup(body.data) };
    }
    // With an invitation, an email that has an account joins with its password: wrong ones
    // are slowed down as on /auth/token.
    const guessKey = `${clientAddress(req)}|${body.data.email.toLowerCase()}`;
    await passwordGuesses.assertAllowed(guessKey);
    try {
      const joined = await services.identity.signup(body.data);
      await passwordGuesses.forget(guessKey);
      return { data: joined };
    } catch (error) {
      if (error instanceof InfraDeliveryError && error.status === 401) {
        await passwordGuesses.recordFailure(guessKey);
      }
      throw error;
    }
  });

  bind(operations.createAccessToken, async ({ body, req }) => {
    await rateLimiter.consume(
      'token-address',
      clientAddress(req),
      rateLimits.tokenAttemptsPerAddress,
    );
    // Wrong passwords slow down the address that sends them for that account, not the owner.
    const guessKey = `${clientAddress(req)}|${body.data.email.toLowerCase()}`;
    await passwordGuesses.assertAllowed(guessKey);
    try {
      const token = await services.identity.createAccessToken(body.data);
      await passwordGuesses.forget(guessKey);
      return { data: token };
    } catch (error) {
      if (error instanceof InfraDeliveryError && error.status === 401) {
        await passwordGuesses.recordFailure(guessKey);
      }
      throw error;
    }
  });
}
