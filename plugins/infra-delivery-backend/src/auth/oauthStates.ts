import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { InfraDeliveryError } from '../errors';

const ISSUER = 'infra-delivery';
const AUDIENCE = 'infra-delivery-gitforge-oauth';
export const OAUTH_STATE_TTL_SECONDS = 600;

/** Who started a login, to which server. */
export interface OAuthStateSubject {
  organizationId: string;
  membershipId: string;
  serverId: string;
}

export interface OAuthStateClaims extends OAuthStateSubject {
  /** Recorded when the state is used, so that it works once. */
  stateId: string;
  expiresAt: Date;
}

/** When a state issued at `issuedAt` stops working (JWT times are whole seconds). */
export function oauthStateExpiry(issuedAt: Date): Date {
  return new Date(
    (Math.floor(issuedAt.getTime() / 1000) + OAUTH_STATE_TTL_SECONDS) * 1000,
  );
}

function invalidState(reason: string, message: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 400,
    entity: 'GitSelfHostedLogin',
    reason,
    message,
    description:
      'Start the login again from the portal; a login link works once, for 10 minutes.',
  });
}

/**
 * The `state` of a self-hosted server's OAuth login: an HS256 JWT, valid for 10 minutes, naming
 * the member and the server it was issued for. The callback completes only for that member,
 * signed in (a state sent to someone else is refused), so the signature ties the code to the
 * member and the member's credential ties it to the browser. Single use is the caller's part
 * (recording `stateId`).
 */
export class OAuthStateTokens {
  constructor(private readonly key: Uint8Array) {}

  async issue(subject: OAuthStateSubject, now = new Date()): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ org: subject.organizationId, srv: subject.serverId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject.membershipId)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(oauthStateExpiry(now))
      .sign(this.key);
  }

  async verify(state: string): Promise<OAuthStateClaims> {
    try {
      const { payload } = await jwtVerify(state, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['jti', 'sub', 'exp'],
      });
      if (typeof payload.org !== 'string' || typeof payload.srv !== 'string') {
        throw new joseErrors.JWTClaimValidationFailed('claims', payload);
      }
      return {
        stateId: payload.jti!,
        organizationId: payload.org,
        membershipId: payload.sub!,
        serverId: payload.srv,
        expiresAt: new Date(payload.exp! * 1000),
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw invalidState(
          'STATE_EXPIRED',
          'The login took longer than 10 minutes',
        );
      }
      throw invalidState(
        'INVALID_STATE',
        'The login state is not one this service issued',
      );
    }
  }
}
