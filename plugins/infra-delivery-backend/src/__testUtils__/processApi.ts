import fs from 'node:fs';
import nodePath from 'node:path';

/** An answer of the service, or `status: 0` when the connection failed (no answer at all). */
export interface ProcessResponse {
  status: number;
  body: any;
  headers: Headers;
}

/** Plain HTTP calls to a backend process, as automation makes them. */
export class ProcessApi {
  constructor(private readonly baseUrl: () => string) {}

  async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; token?: string; timeoutMs?: number } = {},
  ): Promise<ProcessResponse> {
    try {
      const response = await fetch(`${this.baseUrl()}${path}`, {
        method,
        headers: {
          ...(options.body !== undefined
            ? { 'content-type': 'application/json' }
            : {}),
          ...(options.token
            ? { authorization: `Bearer ${options.token}` }
            : {}),
        },
        body:
          options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? JSON.parse(text) : undefined,
        headers: response.headers,
      };
    } catch {
      return { status: 0, body: undefined, headers: new Headers() };
    }
  }

  /** A call that must succeed with `status`; throws with the answer otherwise. */
  async expect(
    status: number,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { body?: unknown; token?: string } = {},
  ): Promise<any> {
    const response = await this.call(method, path, options);
    if (response.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${
          response.status
        } ${JSON.stringify(response.body)}`,
      );
    }
    return response.body;
  }
}

/** The plan JSON the runner reports in the reliability tests, and its resource count. */
export function reliabilityPlanJson(): {
  planJson: Record<string, unknown>;
  resourceCount: number;
} {
  const planJson = JSON.parse(
    fs.readFileSync(
      nodePath.resolve(
        __dirname,
        '../iac/__fixtures__/tf-plans/terraform-compliance__test_issue_522.plan.json',
      ),
      'utf8',
    ),
  );
  return { planJson, resourceCount: planJson.resource_changes.length };
}

export const PROCESS_PASSWORD = 'correct horse battery staple';

/**
 * An organization with a project, an environment, `stacks` auto-approving stacks, and a
 * service account's API key for the runner protocol.
 */
export async function seedOrganization(
  api: ProcessApi,
  options: { stacks: number; email?: string },
) {
  const email =
    options.email ??
    `reliability-${Date.now()}-${Math.random()
      .toString(36)
      .slice(2)}@example.com`;
  await api.expect(201, 'POST', '/auth/signup', {
    body: { data: { email, password: PROCESS_PASSWORD } },
  });
  const token: string = (
    await api.expect(200, 'POST', '/auth/token', {
      body: { data: { email, password: PROCESS_PASSWORD } },
    })
  ).data.accessToken;
  const project = (
    await api.expect(201, 'POST', '/projects', {
      token,
      body: { data: { givenId: 'core', name: 'Core' } },
    })
  ).data;
  const environment = (
    await api.expect(201, 'POST', `/projects/${project.id}/environments`, {
      token,
      body: { data: { givenId: 'prod', name: 'Production' } },
    })
  ).data;
  const stacks: { id: string; changePipelineId: string }[] = [];
  for (let i = 0; i < options.stacks; i++) {
    const stack = (
      await api.expect(201, 'POST', '/stacks', {
        token,
        body: {
          data: {
            projectId: project.id,
            environmentId: environment.id,
            name: `Stack ${i}`,
            givenId: `stack-${i}`,
            path: `stacks/${i}`,
            autoApprove: true,
          },
        },
      })
    ).data;
    stacks.push({ id: stack.id, changePipelineId: stack.changePipelineId });
  }
  const account = (
    await api.expect(201, 'POST', '/service-accounts', {
      token,
      body: { data: { name: 'runner', role: 'MEMBER' } },
    })
  ).data;
  const runnerKey: string = (
    await api.expect(201, 'POST', '/api-keys', {
      token,
      body: {
        data: {
          name: 'runner',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: account.id,
        },
      },
    })
  ).data.key;
  return {
    email,
    password: PROCESS_PASSWORD,
    token,
    projectId: project.id as string,
    environmentId: environment.id as string,
    stacks,
    runnerKey,
  };
}
