import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { InfraDeliveryError } from '../errors';
import {
  ONBOARDING_TOKEN_TTL_SECONDS,
  OnboardingTokens,
} from './onboardingTokens';

const claims = {
  cloudAccountId: 'acct-1',
  organizationId: 'org-1',
  roleVersion: '2',
};

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(InfraDeliveryError);
    expect((error as InfraDeliveryError).status).toBe(401);
    return (error as InfraDeliveryError).code;
  }
  throw new Error('expected a refusal');
}

describe('OnboardingTokens', () => {
  const key = randomBytes(32);
  const tokens = new OnboardingTokens(key);

  it('issues a one-hour token for one account with a unique id', async () => {
    const now = new Date();
    const token = await tokens.issue(claims, now);
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({
      aud: 'acct-1',
      org: 'org-1',
      ver: '2',
      iss: 'infra-delivery-onboarding',
    });
    expect(payload.exp! - payload.iat!).toBe(ONBOARDING_TOKEN_TTL_SECONDS);

    const verified = await tokens.verify(token, 'acct-1');
    expect(verified).toEqual({
      ...claims,
      jti: payload.jti,
      expiresAt: new Date(payload.exp! * 1000),
    });
    expect(decodeJwt(await tokens.issue(claims, now)).jti).not.toBe(
      payload.jti,
    );
  });

  it('refuses the token for another account', async () => {
    const token = await tokens.issue(claims);
    expect(await refusal(tokens.verify(token, 'acct-2'))).toBe(
      'InfraDelivery:CloudAccount:INVALID_ONBOARDING_TOKEN',
    );
  });

  it('refuses an expired token', async () => {
    const token = await tokens.issue(
      claims,
      new Date(Date.now() - (ONBOARDING_TOKEN_TTL_SECONDS + 5) * 1000),
    );
    expect(await refusal(tokens.verify(token, 'acct-1'))).toBe(
      'InfraDelivery:CloudAccount:ONBOARDING_TOKEN_EXPIRED',
    );
  });

  it('refuses a token of another key, and an access token of the same key', async () => {
    const foreign = await new OnboardingTokens(randomBytes(32)).issue(claims);
    expect(await refusal(tokens.verify(foreign, 'acct-1'))).toBe(
      'InfraDelivery:CloudAccount:INVALID_ONBOARDING_TOKEN',
    );
    const { accessToken } = await new AccessTokenIssuer(key).issue({
      membershipId: 'm-1',
      organizationId: 'org-1',
    });
    expect(await refusal(tokens.verify(accessToken, 'acct-1'))).toBe(
      'InfraDelivery:CloudAccount:INVALID_ONBOARDING_TOKEN',
    );
  });
});
