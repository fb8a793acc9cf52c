import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { newId } from '../database/ids';
import { InfraDeliveryError } from '../errors';

const ISSUER = 'infra-delivery-onboarding';
export const ONBOARDING_TOKEN_TTL_SECONDS = 3600;

export interface OnboardingClaims {
  cloudAccountId: string;
  organizationId: string;
  roleVersion: string;
  /** The token's id: recorded on use, so the token works once. */
  jti: string;
  expiresAt: Date;
}

/**
 * The onboarding JWT baked into a template: HS256 with its own key (never the access-token
 * key), audience = the one cloud account it may connect, short-lived, used once.
 */
export class OnboardingTokens {
  constructor(private readonly key: Uint8Array) {}

  /**
   * A token for one account. `ttlSeconds` is one hour unless a template is published
   * for longer (see CloudOnboardingService.templateUrl).
   */
  async issue(
    claims: Omit<OnboardingClaims, 'jti' | 'expiresAt'>,
    now = new Date(),
    ttlSeconds = ONBOARDING_TOKEN_TTL_SECONDS,
  ): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({
      org: claims.organizationId,
      ver: claims.roleVersion,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(claims.cloudAccountId)
      .setJti(newId())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a token issued for `cloudAccountId`; a 401 for anything else. */
  async verify(
    token: string,
    cloudAccountId: string,
  ): Promise<OnboardingClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: cloudAccountId,
        algorithms: ['HS256'],
      });
      const { org, ver, jti, exp } = payload;
      if (
        typeof org !== 'string' ||
        typeof ver !== 'string' ||
        typeof jti !== 'string' ||
        typeof exp !== 'number'
      ) {
        throw new joseErrors.JWTClaimValidationFailed('claims', payload);
      }
      return {
        cloudAccountId,
        organizationId: org,
        roleVersion: ver,
        jti,
        expiresAt: new Date(exp * 1000),
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new InfraDeliveryError({
          status: 401,
          entity: 'CloudAccount',
          reason: 'ONBOARDING_TOKEN_EXPIRED',
          message:
            'The onboarding token has expired; download a new template from a fresh template URL',
        });
      }
      throw new InfraDeliveryError({
        status: 401,
        entity: 'CloudAccount',
        reason: 'INVALID_ONBOARDING_TOKEN',
        message: `The onboarding token is not valid for cloud account ${cloudAccountId}`,
      });
    }
  }
}
