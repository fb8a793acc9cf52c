import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestDatabaseId,
} from '@backstage/backend-test-utils';
import { BackendFeature } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { JsonObject } from '@backstage/types';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import { Server } from 'node:http';
import request from 'supertest';
import { infraDeliveryPlugin } from '../plugin';
import { createTestDatabases } from './testDatabases';

export const BASE = '/api/infra-delivery';

export interface TestBackendOptions {
  config?: JsonObject;
  /** The permission framework's answer for portal users (default: allow). */
  permissionResult?: AuthorizeResult.ALLOW | AuthorizeResult.DENY;
  extraFeatures?: BackendFeature[];
}

/** A signed-up user of a fresh organization, with an access token. */
export interface TestOrganization {
  organizationId: string;
  userId: string;
  email: string;
  password: string;
  token: string;
}

let emailCounter = 0;
export function uniqueEmail(name = 'user'): string {
  emailCounter += 1;
  return `${name}-${Date.now()}-${emailCounter}@example.com`;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * Tests sign up many users and try many bad keys from one address; the per-email token limit
 * stays as shipped.
 */
const TEST_CONFIG: JsonObject = {
  infraDelivery: {
    // Every test signs people up: at the shipped cost their passwords' hashes took most of the
    // route suites' time (auth/passwords.test.ts checks the shipped cost).
    passwords: { scryptCost: 10 },
    rateLimits: {
      signup: { limit: 100000 },
      tokenPerAddress: { limit: 100000 },
      apiKeyFailuresPerAddress: { limit: 100000 },
    },
  },
};

/**
 * The test's configuration over TEST_CONFIG; its `infraDelivery.rateLimits` are merged per
 * limit, so a test that sets some limits keeps the others lifted.
 */
function withTestRateLimits(config: JsonObject = {}): JsonObject {
  const base = TEST_CONFIG.infraDelivery as JsonObject;
  const own = (config.infraDelivery ?? {}) as JsonObject;
  return {
    ...TEST_CONFIG,
    ...config,
    infraDelivery: {
      ...base,
      ...own,
      rateLimits: {
        ...(base.rateLimits as JsonObject),
        ...((own.rateLimits ?? {}) as JsonObject),
      },
    },
  };
}

/** Helpers fail loudly, with the answer's body, when a set-up call does not succeed. */
function expectStatus(response: request.Response, status: number) {
  if (response.status !== status) {
    throw new Error(
      `Expected ${status} from ${response.request.method} ${
        response.request.url
      }, got ${response.status}: ${JSON.stringify(response.body)}`,
    );
  }
}

export class InfraDeliveryTestClient {
  constructor(readonly server: Server) {}

  get(path: string, token?: string) {
    return this.withToken(request(this.server).get(`${BASE}${path}`), token);
  }

  post(path: string, body: unknown, token?: string) {
    return this.withToken(
      request(this.server)
        .post(`${BASE}${path}`)
        .send(body as object),
      token,
    );
  }

  patch(path: string, body: unknown, token?: string) {
    return this.withToken(
      request(this.server)
        .patch(`${BASE}${path}`)
        .send(body as object),
      token,
    );
  }

  delete(path: string, token?: string) {
    return this.withToken(request(this.server).delete(`${BASE}${path}`), token);
  }

  private withToken(test: request.Test, token?: string) {
    return token ? test.set('authorization', `Bearer ${token}`) : test;
  }

  /** A Backstage user token for `userEntityRef`, as the portal frontend sends it. */
  backstageUserToken(userEntityRef = 'user:default/mock'): string {
    return mockCredentials.user.token(userEntityRef);
  }

  async token(email: string, password = TEST_PASSWORD): Promise<string> {
    const response = await this.post('/auth/token', {
      data: { email, password },
    });
    expectStatus(response, 200);
    return response.body.data.accessToken;
  }

  async signup(email = uniqueEmail('owner')): Promise<TestOrganization> {
    const response = await this.post('/auth/signup', {
      data: { email, password: TEST_PASSWORD, plan: 'team' },
    });
    expectStatus(response, 201);
    return {
      ...response.body.data,
      email,
      password: TEST_PASSWORD,
      token: await this.token(email),
    };
  }

  /** Invites a person with `role` into the owner's organization and signs them up. */
  async member(
    owner: TestOrganization,
    role: Role,
  ): Promise<{ token: string; membershipId: string; email: string }> {
    const email = uniqueEmail(role.toLowerCase());
    const invitation = await this.post(
      '/memberships',
      { data: { email, role } },
      owner.token,
    );
    expectStatus(invitation, 201);
    const signup = await this.post('/auth/signup', {
      data: {
        email,
        password: TEST_PASSWORD,
        invitationToken: invitation.body.data.invitationToken,
      },
    });
    expectStatus(signup, 201);
    return {
      token: await this.token(email),
      membershipId: invitation.body.data.id,
      email,
    };
  }

  /** Walks every page of a list and returns all items in order. */
  async walk(path: string, token: string, limit: number): Promise<any[]> {
    const items: any[] = [];
    let cursor: string | undefined;
    const separator = path.includes('?') ? '&' : '?';
    do {
      const response: request.Response = await this.get(
        `${path}${separator}limit=${limit}${
          cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        }`,
        token,
      );
      expectStatus(response, 200);
      items.push(...response.body.data);
      cursor = response.body.meta.nextCursor;
    } while (cursor);
    return items;
  }
}

/**
 * The plugin in a test backend on the given database, with helpers that act as callers the
 * way automation would: sign up, get a token, invite members with roles.
 */
export async function startInfraDeliveryBackend(
  knex: Awaited<ReturnType<ReturnType<typeof createTestDatabases>['init']>>,
  options: TestBackendOptions = {},
) {
  const { server } = await startTestBackend({
    features: [
      infraDeliveryPlugin,
      mockServices.database.factory({ knex }),
      mockServices.rootConfig.factory({
        data: withTestRateLimits(options.config),
      }),
      mockServices.permissions.factory({
        result: options.permissionResult ?? AuthorizeResult.ALLOW,
      }),
      ...(options.extraFeatures ?? []),
    ],
  });
  return new InfraDeliveryTestClient(server);
}

export { createTestDatabases };
export type { TestDatabaseId };
