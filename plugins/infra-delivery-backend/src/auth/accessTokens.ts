import { errors as joseErrors, decodeJwt, jwtVerify, SignJWT } from 'jose';
import { InfraDeliveryError } from '../errors';

/** The issuer that tells the plugin's access tokens apart from Backstage's tokens. */
export const ACCESS_TOKEN_ISSUER = 'infra-delivery';
const AUDIENCE = 'infra-delivery-api';
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

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

/** Short-lived HS256 tokens for `POST /auth/token`, signed with a key shared through the database. */
export class AccessTokenIssuer {
  constructor(private readonly key: Uint8Array) {}

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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ACCESS_TOKEN_ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') {
        throw new joseErrors.JWTClaimValidationFailed('claims', payload);
      }
      return { membershipId: payload.sub, organizationId: payload.org };
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
