import {
  BackstageCredentials,
  BackstageUserPrincipal,
  HttpAuthService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import { Request } from 'express';
import { isUniqueViolation } from '../database/dbErrors';
import { Stores } from '../database/stores';
import { clientAddressBucket } from './clientAddress';
import { InfraDeliveryError } from '../errors';
import { AccessTokenIssuer, isAccessToken } from './accessTokens';
import { apiKeyMatches, looksLikeApiKey, parseApiKey } from './apiKeyFormat';
import { Caller } from './Caller';
import { CallerCache, RememberedCaller } from './CallerCache';
import { RateLimit, RateLimiter } from './RateLimiter';
import { strongestRole } from './roles';

/** How portal (Backstage) callers map into the portal organization. */
export interface PortalAccessOptions {
  /** Catalog entity refs (users or groups) → role; the strongest match wins. */
  roleMappings: { entityRef: string; role: Role }[];
  /** Role of a portal user whom no mapping names. */
  defaultRole: Role;
  /** Role of other Backstage plugins calling with service tokens. */
  serviceRole: Role;
}

/** A key's last use is written at most this often. */
const LAST_USED_WRITE_INTERVAL_MS = 5 * 60 * 1000;

function unauthenticated(reason: string, message: string) {
  return new InfraDeliveryError({
    status: 401,
    entity: 'Auth',
    reason,
    message,
  });
}

/** The answer to a request whose API key is not (or no longer) one of a live key. */
export function invalidApiKey(): InfraDeliveryError {
  return unauthenticated(
    'INVALID_API_KEY',
    'The API key is not valid: it is mistyped, was revoked, or its service account was removed',
  );
}

function bearerToken(req: Request): string | undefined {
  const header = req.header('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Resolves the caller of a request from its bearer credential: an API key or access token of
 * the plugin's own, or a Backstage user or service token. Every failure is a 401 that does not
 * say which part of a credential was wrong. What a credential resolved to is remembered under
 * the access epoch (auth/CallerCache.ts): a known credential costs one read of the epoch.
 */
export class CallerResolver {
  /** API keys and access tokens, by their hash; portal users, by their entity ref. */
  private readonly remembered = new CallerCache();

  constructor(
    private readonly deps: {
      stores: Stores;
      httpAuth: HttpAuthService;
      userInfo: UserInfoService;
      accessTokens: AccessTokenIssuer;
      portalOrganizationId: string;
      portal: PortalAccessOptions;
      /** Requests whose API key fails verification, counted per client address. */
      apiKeyFailures: { limiter: RateLimiter; perAddress: RateLimit };
    },
  ) {}

  async resolve(req: Request): Promise<Caller> {
    const token = bearerToken(req);
    if (!token) {
      throw unauthenticated(
        'MISSING_CREDENTIAL',
        'Send a credential as "Authorization: Bearer <token>"',
      );
    }
    const key = this.remembered.keyOf(token);
    const known = await this.rememberedCaller(key);
    if (known) {
      await this.recordApiKeyUse(known);
      return known.caller;
    }
    if (looksLikeApiKey(token)) {
      return this.fromApiKeyLimited(token, key, req);
    }
    if (isAccessToken(token)) {
      return this.fromAccessToken(token, key);
    }
    return this.fromBackstageToken(req);
  }

  /** The caller remembered under `key`, if still valid under the current access epoch. */
  private async rememberedCaller(
    key: string,
  ): Promise<RememberedCaller | undefined> {
    if (!this.remembered.has(key)) {
      return undefined;
    }
    const epoch = await this.deps.stores.accessEpoch.current();
    return this.remembered.get(key, epoch, Date.now());
  }

  /** A remembered API key's use is still recorded, at most every few minutes. */
  private async recordApiKeyUse(known: RememberedCaller): Promise<void> {
    const now = new Date();
    if (
      !known.apiKey ||
      now.getTime() - known.apiKey.lastUsedAtMs < LAST_USED_WRITE_INTERVAL_MS
    ) {
      return;
    }
    known.apiKey.lastUsedAtMs = now.getTime();
    await this.deps.stores.apiKeys.touchLastUsed(
      known.apiKey.id,
      now,
      LAST_USED_WRITE_INTERVAL_MS,
    );
  }

  /**
   * An API key. A valid key is never refused for others' failures; a key that fails is
   * answered 429 instead of 401 once its client address (IPv6 by /64) or its lookup id had too
   * many failures in the window, which slows a guesser without locking anybody out.
   */
  private async fromApiKeyLimited(token: string, key: string, req: Request) {
    try {
      return await this.fromApiKey(token, key);
    } catch (error) {
      if (!(error instanceof InfraDeliveryError) || error.status !== 401) {
        throw error;
      }
      const { limiter, perAddress } = this.deps.apiKeyFailures;
      const buckets = [`address:${clientAddressBucket(req)}`];
      const lookupId = parseApiKey(token)?.lookupId;
      if (lookupId) {
        buckets.push(`key:${lookupId}`);
      }
      for (const bucket of buckets) {
        await limiter.assertAllowed('api-key-failures', bucket, perAddress);
      }
      for (const bucket of buckets) {
        await limiter.record('api-key-failures', bucket, perAddress);
      }
      throw error;
    }
  }

  private async fromApiKey(token: string, key: string): Promise<Caller> {
    const invalid = invalidApiKey();
    const parsed = parseApiKey(token);
    if (!parsed) {
      throw invalid;
    }
    const epoch = await this.deps.stores.accessEpoch.current();
    const record = await this.deps.stores.apiKeys.findByLookupId(
      parsed.lookupId,
    );
    if (!record || !apiKeyMatches(token, record.secretHash)) {
      throw invalid;
    }
    const { apiKey } = record;
    const now = new Date();
    if (apiKey.expiresAt && new Date(apiKey.expiresAt) <= now) {
      throw unauthenticated('API_KEY_EXPIRED', 'The API key has expired');
    }
    let lastUsedAtMs = apiKey.lastUsedAt
      ? new Date(apiKey.lastUsedAt).getTime()
      : -Infinity;
    if (now.getTime() - lastUsedAtMs >= LAST_USED_WRITE_INTERVAL_MS) {
      await this.deps.stores.apiKeys.touchLastUsed(
        apiKey.id,
        now,
        LAST_USED_WRITE_INTERVAL_MS,
      );
      lastUsedAtMs = now.getTime();
    }
    const owner = await this.apiKeyOwner(apiKey);
    if (!owner) {
      throw invalid;
    }
    const caller: Caller = {
      ...owner,
      accessEpoch: epoch,
      apiKeyId: apiKey.id,
    };
    this.remembered.remember(key, {
      caller,
      epoch,
      expiresAtMs: apiKey.expiresAt
        ? new Date(apiKey.expiresAt).getTime()
        : Infinity,
      apiKey: { id: apiKey.id, lastUsedAtMs },
    });
    return caller;
  }

  /** The caller an API key acts as: its service account, or its member who signed up. */
  private async apiKeyOwner(apiKey: {
    organizationId: string;
    ownerType: string;
    ownerId: string;
  }): Promise<Caller | undefined> {
    if (apiKey.ownerType === 'SERVICE_ACCOUNT') {
      const account = await this.deps.stores.serviceAccounts.get(
        apiKey.organizationId,
        apiKey.ownerId,
      );
      return (
        account && {
          organizationId: apiKey.organizationId,
          role: account.role,
          principal: { type: 'service-account', serviceAccountId: account.id },
          credentialKind: 'api-key',
        }
      );
    }
    const membership = await this.deps.stores.memberships.get(
      apiKey.organizationId,
      apiKey.ownerId,
    );
    if (!membership?.userId) {
      return undefined;
    }
    return {
      organizationId: membership.organizationId,
      role: membership.role,
      principal: {
        type: 'membership',
        membershipId: membership.id,
        userId: membership.userId,
      },
      credentialKind: 'api-key',
    };
  }

  private async fromAccessToken(token: string, key: string): Promise<Caller> {
    const { claims, expiresAtMs } = await this.deps.accessTokens.verifyUntil(
      token,
    );
    const epoch = await this.deps.stores.accessEpoch.current();
    const membership = await this.deps.stores.memberships.get(
      claims.organizationId,
      claims.membershipId,
    );
    if (!membership?.userId) {
      throw unauthenticated('INVALID_TOKEN', 'The access token is not valid');
    }
    const caller: Caller = {
      organizationId: membership.organizationId,
      role: membership.role,
      principal: {
        type: 'membership',
        membershipId: membership.id,
        userId: membership.userId,
      },
      credentialKind: 'access-token',
      accessEpoch: epoch,
    };
    this.remembered.remember(key, { caller, epoch, expiresAtMs });
    return caller;
  }

  private async fromBackstageToken(req: Request): Promise<Caller> {
    let credentials: BackstageCredentials<
      BackstageUserPrincipal | { type: 'service'; subject: string }
    >;
    try {
      credentials = await this.deps.httpAuth.credentials(req, {
        allow: ['user', 'service'],
      });
    } catch {
      throw unauthenticated('INVALID_TOKEN', 'The token is not valid');
    }
    return this.fromCredentials(credentials);
  }

  /**
   * The caller for Backstage credentials that were verified already (e.g. those an action of
   * the actions registry is invoked with): the same portal mapping as a Backstage token.
   */
  async fromCredentials(credentials: BackstageCredentials): Promise<Caller> {
    const { type } = credentials.principal as { type: string };
    if (type !== 'user' && type !== 'service') {
      throw unauthenticated(
        'MISSING_CREDENTIAL',
        'A Backstage user or service is needed',
      );
    }
    const organizationId = this.deps.portalOrganizationId;
    if (type === 'service') {
      return {
        organizationId,
        role: this.deps.portal.serviceRole,
        principal: {
          type: 'backstage-service',
          subject: (credentials.principal as { subject: string }).subject,
        },
        credentialKind: 'backstage-service',
        backstageCredentials: credentials,
      };
    }
    const user = credentials as BackstageCredentials<BackstageUserPrincipal>;
    // Backstage verified the token; what the user is in the portal organization is
    // remembered under the access epoch like the plugin's own credentials.
    const key = `backstage-user:${user.principal.userEntityRef}`;
    const known = await this.rememberedCaller(key);
    if (known) {
      return { ...known.caller, backstageCredentials: credentials };
    }
    const epoch = await this.deps.stores.accessEpoch.current();
    const membership = await this.portalMembership(user);
    const caller: Caller = {
      organizationId,
      role: membership.role,
      principal: {
        type: 'membership',
        membershipId: membership.id,
        userId: membership.userId!,
      },
      credentialKind: 'backstage-user',
      accessEpoch: epoch,
    };
    this.remembered.remember(key, { caller, epoch, expiresAtMs: Infinity });
    return { ...caller, backstageCredentials: credentials };
  }

  /**
   * The portal user's membership, provisioned on first use with the role their catalog
   * user and groups map to. Later role changes are made through the memberships API.
   */
  private async portalMembership(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ) {
    const { stores, portalOrganizationId } = this.deps;
    const ref = credentials.principal.userEntityRef;
    const existing = await stores.users.findByBackstageRef(ref);
    if (existing) {
      const membership = await stores.memberships.findForUser(
        existing.id,
        portalOrganizationId,
      );
      if (membership) {
        return membership;
      }
    }
    const role = await this.portalRole(credentials);
    try {
      return await stores.transaction(async tx => {
        const user =
          existing ??
          (await tx.users.create({
            email: ref,
            backstageUserRef: ref,
            shortName: ref.split('/').pop(),
          }));
        return tx.memberships.createForUser({
          organizationId: portalOrganizationId,
          userId: user.id,
          email: user.email,
          role,
        });
      });
    } catch (error) {
      // A concurrent first request provisioned the same user.
      if (!isUniqueViolation(error)) {
        throw error;
      }
      const user = await stores.users.findByBackstageRef(ref);
      const membership =
        user &&
        (await stores.memberships.findForUser(user.id, portalOrganizationId));
      if (!membership) {
        throw error;
      }
      return membership;
    }
  }

  private async portalRole(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ): Promise<Role> {
    const { ownershipEntityRefs } = await this.deps.userInfo.getUserInfo(
      credentials,
    );
    const refs = new Set(
      [credentials.principal.userEntityRef, ...ownershipEntityRefs].map(r =>
        r.toLocaleLowerCase('en-US'),
      ),
    );
    const mapped = this.deps.portal.roleMappings
      .filter(m => refs.has(m.entityRef.toLocaleLowerCase('en-US')))
      .map(m => m.role);
    return strongestRole(mapped) ?? this.deps.portal.defaultRole;
  }
}
