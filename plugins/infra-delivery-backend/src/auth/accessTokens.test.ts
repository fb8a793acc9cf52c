import { randomBytes } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AccessTokenIssuer,
  isAccessToken,
} from './accessTokens';

const claims = { membershipId: 'membership-1', organizationId: 'org-1' };

describe('AccessTokenIssuer', () => {
  afterEach(() => jest.useRealTimers());

  it('verifies its own tokens, again from memory, and refuses another key', async () => {
    const issuer = new AccessTokenIssuer(randomBytes(32));
    const { accessToken } = await issuer.issue(claims);
    expect(isAccessToken(accessToken)).toBe(true);
    expect(await issuer.verify(accessToken)).toEqual(claims);
    expect(await issuer.verify(accessToken)).toEqual(claims);
    await expect(
      new AccessTokenIssuer(randomBytes(32)).verify(accessToken),
    ).rejects.toMatchObject({
      status: 401,
      code: 'InfraDelivery:Auth:INVALID_TOKEN',
    });
  });

  it('does not take a token that differs from a remembered one in its signature', async () => {
    const issuer = new AccessTokenIssuer(randomBytes(32));
    const { accessToken } = await issuer.issue(claims);
    await issuer.verify(accessToken);
    const last = accessToken.slice(-2, -1) === 'A' ? 'B' : 'A';
    const tampered = `${accessToken.slice(0, -2)}${last}${accessToken.slice(
      -1,
    )}`;
    await expect(issuer.verify(tampered)).rejects.toMatchObject({
      status: 401,
      code: 'InfraDelivery:Auth:INVALID_TOKEN',
    });
  });

  it('refuses a remembered token once it has expired', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    const issuer = new AccessTokenIssuer(randomBytes(32));
    const { accessToken, expiresAt } = await issuer.issue(claims, new Date());
    expect(expiresAt).toBe(
      new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString(),
    );
    expect(await issuer.verify(accessToken)).toEqual(claims);

    jest.setSystemTime(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 + 1000);
    await expect(issuer.verify(accessToken)).rejects.toMatchObject({
      status: 401,
      code: 'InfraDelivery:Auth:TOKEN_EXPIRED',
    });
  });
});
