import { createSecretKey, KeyObject } from 'node:crypto';
import { errors as joseErrors, decodeJwt, jwtVerify, SignJWT } from 'jose';
import { InfraDeliveryError } from '../errors';
import { BoundedMap } from '../lib/BoundedMap';

/** The issuer that tells the plugin's access tokens apart from Backstage's tokens. */
export const ACCESS_TOKEN_ISSUER = 'infra-delivery';
const AUDIENCE = 'infra-delivery-api';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Verified tokens remembered until they expire; the oldest go first beyond this. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export interface AccessTokenClaims {
  membershipId: string;
  organizationId: string;
}

export function isAccessToken(token: string): boolean {
  try {
    return decodeJwt(token).iss === ACCESS_TOKEN_ISSUER;
  } catch {
    return false;
  }
}

/**
 * Short-lived HS256 tokens for `POST /auth/token`, signed with a key shared through the database.
 * A token that verified once is remembered with its claims until it expires, so that a client
 * polling with it is not verified again on every request (jose's verification was a tenth of
 * the backend's CPU per request in the benchmarks). Only the signature and the time are
 * remembered: the caller's membership is still read on every request.
 */
export class AccessTokenIssuer {
  private readonly key: KeyObject;
  private readonly verified = new BoundedMap<
    string,
    { claims: AccessTokenClaims; expiresAtMs: number }
  >(VERIFIED_TOKEN_CACHE_SIZE);

  constructor(key: Uint8Array) {
    this.key = createSecretKey(key);
  }

  async issue(
    claims: AccessTokenClaims,
    now = new Date(),
  ): Promise<{ accessToken: string; expiresAt: string }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
    const accessToken = await new SignJWT({ org: claims.organizationId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(claims.membershipId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    return {
      accessToken,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    return (await this.verifyUntil(token)).claims;
  }

  /** The token's claims and the moment it expires (ms since the epoch). */
  async verifyUntil(
    token: string,
  ): Promise<{ claims: AccessTokenClaims; expiresAtMs: number }> {
    const remembered = this.verified.get(token);
    if (remembered && Date.now() < remembered.expiresAtMs) {
      return remembered;
    }
    this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ACCESS_TOKEN_ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.org !== 'string' ||
        typeof payload.exp !== 'number'
      ) {
        throw new joseErrors.JWTClaimValidationFailed('claims', payload);
      }
      const claims = { membershipId: payload.sub, organizationId: payload.org };
      const verified = { claims, expiresAtMs: payload.exp * 1000 };
      this.verified.set(token, verified);
      return verified;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new InfraDeliveryError({
          status: 401,
          entity: 'Auth',
          reason: 'TOKEN_EXPIRED',
          message: 'The access token has expired; request a new one',
        });
      }
      throw new InfraDeliveryError({
        status: 401,
        entity: 'Auth',
        reason: 'INVALID_TOKEN',
        message: 'The access token is not valid',
      });
    }
  }
}
