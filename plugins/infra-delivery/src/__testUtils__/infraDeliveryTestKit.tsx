import { Entity } from '@backstage/catalog-model';
import { ExternalRouteRef, RouteRef } from '@backstage/frontend-plugin-api';
import {
  mockApis,
  registerMswTestHooks,
  renderInTestApp,
  TestApiPair,
} from '@backstage/frontend-test-utils';
import {
  catalogApiRef,
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  NotificationsApi,
  notificationsApiRef,
} from '@backstage/plugin-notifications';
import { SignalApi, signalApiRef } from '@backstage/plugin-signals-react';
import {
  CloudAccount,
  ErrorBody,
  GitSelfHostedServer,
  IacExecutionSummary,
  IacResource,
  InfraDeliveryClient,
  Pipeline,
  PipelineRun,
  Runner,
  Stack,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { infraDeliveryApiRef } from '../api';

/**
 * Shared set-up of the plugin's component tests: a fake service behind msw, the typed client
 * pointing at it, wire-shaped fixtures and a renderer that puts an entity and a permission
 * decision around a component.
 *
 * `usePermission` keeps its answers in SWR's module-wide cache, which outlives a single test:
 * a test file must therefore render with one permission decision only. The tests of denied
 * actions live in their own `*.denied.test.tsx` files.
 */

export const baseUrl = 'http://backend.test/api/infra-delivery';
export const now = '2026-01-15T10:00:00.000Z';

/** A request as the fake service received it, with the plugin's base path removed. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body?: unknown;
}

/**
 * An msw server with no handlers by default (an unhandled request is reported as an error and
 * its fetch fails), recording every request it receives.
 */
export function setupInfraDeliveryServer(options: { role?: string } = {}) {
  // The caller's role is asked by every view that offers actions; a test can override it.
  const server = setupServer(
    http.get(`${baseUrl}/me`, () =>
      HttpResponse.json({
        data: {
          organizationId: 'org-1',
          role: options.role ?? 'OWNER',
          principalType: 'membership',
        },
      }),
    ),
  );
  registerMswTestHooks(server);
  let requests: RecordedRequest[] = [];

  beforeEach(() => {
    requests = [];
    server.events.on('request:start', async ({ request }) => {
      const url = new URL(request.url);
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname.replace(new URL(baseUrl).pathname, ''),
        query: url.searchParams,
        headers: request.headers,
      };
      requests.push(recorded);
      const text = request.method === 'GET' ? '' : await request.clone().text();
      if (text) {
        recorded.body = JSON.parse(text);
      }
    });
  });
  afterEach(() => {
    server.events.removeAllListeners();
  });

  return {
    server,
    /** Every request so far in this test, in order. */
    requests: () => requests,
    /** The requests so far with this method and path. */
    requestsTo: (method: string, path: string) =>
      requests.filter(r => r.method === method && r.path === path),
  };
}

export const client = new InfraDeliveryClient({
  baseUrl: async () => baseUrl,
  fetch: (input, init) => fetch(input, init),
});

/** A catalog entity naming these stacks in `infra-delivery.io/stacks`, or none. */
export function entityNaming(stacks?: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: 'payments',
      annotations:
        stacks === undefined ? {} : { 'infra-delivery.io/stacks': stacks },
    },
    spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
  };
}

/**
 * A signals API that lets the test announce messages. Without one, `useSignal` reports no
 * signals and the views simply do not refresh by themselves.
 */
export function fakeSignals() {
  const listeners = new Map<string, Set<(message: any) => void>>();
  const api: SignalApi = {
    subscribe(channel, onMessage) {
      const set = listeners.get(channel) ?? new Set();
      set.add(onMessage);
      listeners.set(channel, set);
      return { unsubscribe: () => set.delete(onMessage) };
    },
  };
  return {
    api,
    /** Delivers a message to every current subscriber of the channel. */
    announce(channel: string, message: Record<string, string>) {
      listeners.get(channel)?.forEach(listener => listener(message));
    },
    subscriberCount: (channel: string) => listeners.get(channel)?.size ?? 0,
  };
}

/** The runner command the tests configure, to tell it from the default. */
export const configuredRunnerCommand = 'yarn infra-delivery-runner';

/** What the test app is rendered with besides the client. */
export interface TestAppOptions {
  /** A signals API; without one the app has no signals, as without the signals plugin. */
  signals?: SignalApi;
  /** A notifications API; without one the app has none, as without the notifications plugin. */
  notifications?: Partial<NotificationsApi>;
  /** Frontend configuration added to the app's. */
  config?: NonNullable<Parameters<typeof renderInTestApp>[1]>['config'];
  /** Where the app starts, e.g. with a query string (`/?deployment=d1`). */
  initialRouteEntries?: string[];
  /**
   * Pages the app has besides the catalog's, by path: `{ '/infra-delivery': rootRouteRef }`;
   * an external route mounted at a path is bound to it.
   */
  mountedRoutes?: Record<string, RouteRef | ExternalRouteRef>;
  /** The catalog's entities; without them the app has no catalog API. */
  catalogEntities?: Entity[];
}

/**
 * Renders a page or card with the client, discovery pointing at the fake service, the
 * configuration given and a permission decision (all allowed unless given).
 */
export function renderWithService(
  element: JSX.Element,
  options: TestAppOptions & {
    permission?: ReturnType<typeof mockApis.permission>;
  } = {},
) {
  const {
    signals,
    notifications,
    permission = mockApis.permission(),
    initialRouteEntries,
  } = options;
  const config = {
    app: { baseUrl: 'http://localhost:3000' },
    backend: { baseUrl: 'http://backend.test' },
    ...options.config,
  };
  const discovery = mockApis.discovery({ baseUrl: new URL(baseUrl).origin });
  // The catalog's entity pages, which the plugin's views link to.
  const mountedRoutes = {
    '/catalog/:namespace/:kind/:name': entityRouteRef,
    ...options.mountedRoutes,
  };
  // Without a signals or notifications API, as in an app without those plugins.
  const apis: TestApiPair<unknown>[] = [
    [infraDeliveryApiRef, client],
    discovery,
    permission,
    ...(signals ? [[signalApiRef, signals] as const] : []),
    ...(notifications ? [[notificationsApiRef, notifications] as const] : []),
    ...(options.catalogEntities
      ? [
          [
            catalogApiRef,
            catalogApiMock({ entities: options.catalogEntities }),
          ] as const,
        ]
      : []),
  ];
  return renderInTestApp(element, {
    config,
    mountedRoutes,
    initialRouteEntries,
    apis,
  });
}

/** Renders an entity tab with the client and a permission decision for every request. */
export function renderEntityContent(
  element: JSX.Element,
  entity: Entity,
  options: TestAppOptions & {
    /** One decision for every permission, or a decision per permission name. */
    authorize?:
      | 'ALLOW'
      | 'DENY'
      | ((permissionName: string) => 'ALLOW' | 'DENY');
    /** Called with the name of each permission the component asks about. */
    onAuthorize?: (permissionName: string) => void;
  } = {},
) {
  const { authorize = 'ALLOW', onAuthorize, ...appOptions } = options;
  const permission = mockApis.permission({
    authorize: request => {
      onAuthorize?.(request.permission.name);
      return typeof authorize === 'function'
        ? authorize(request.permission.name)
        : authorize;
    },
  });
  return renderWithService(
    <EntityProvider entity={entity}>{element}</EntityProvider>,
    { ...appOptions, permission },
  );
}

/**
 * What a run's page reads of `run`, the one run of its list: the run, its steps as `steps()`
 * gives them at each read, and no plan summaries or resources. Logs are the test's own.
 */
export function runPageHandlers(
  run: PipelineRun,
  steps: () => StepExecution[],
) {
  return [
    http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([run]))),
    http.get(`${baseUrl}/pipeline-runs/${run.id}`, () =>
      HttpResponse.json({ data: run }),
    ),
    http.get(`${baseUrl}/pipeline-runs/${run.id}/step-executions`, () =>
      HttpResponse.json({ data: steps() }),
    ),
    http.get(`${baseUrl}/iac-execution-summaries`, () =>
      HttpResponse.json(list([])),
    ),
    http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
  ];
}

/** `{ data, meta }` of a list endpoint holding all of `data`. */
export function list<T>(data: T[], totalCount = data.length) {
  return { data, meta: { limit: 50, totalCount } };
}

/** An ErrorBody answer. */
export function errorResponse(
  status: number,
  body: { code: string; message: string; requestId: string } & Pick<
    ErrorBody,
    'description' | 'details'
  >,
) {
  return HttpResponse.json(body, { status });
}

export function stack(overrides: Partial<Stack> & Pick<Stack, 'id'>): Stack {
  return {
    changePipelineId: `${overrides.id}-change`,
    destroyPipelineId: `${overrides.id}-destroy`,
    createdAt: now,
    updatedAt: now,
    environmentId: 'env-1',
    organizationId: 'org-1',
    projectId: 'project-1',
    type: 'IAC_OPEN',
    runnerLabels: [],
    givenId: overrides.id,
    name: overrides.id,
    autoApprove: false,
    driftStatus: 'UNKNOWN',
    ...overrides,
  };
}

/**
 * `GET /stacks` as the service answers it: the stacks its `id` parameters name, those that
 * exist (all of them when it names none); `stacks` may be read at each request.
 */
export function stackList(stacks: Stack[] | (() => Stack[])) {
  return http.get(`${baseUrl}/stacks`, ({ request }) => {
    const all = typeof stacks === 'function' ? stacks() : stacks;
    const ids = new URL(request.url).searchParams.getAll('id');
    return HttpResponse.json(
      list(ids.length ? all.filter(s => ids.includes(s.id)) : all),
    );
  });
}

export function pipelineRun(
  overrides: Partial<PipelineRun> & Pick<PipelineRun, 'id'>,
): PipelineRun {
  return {
    attemptEpoch: 1,
    createdAt: now,
    updatedAt: now,
    isCancellable: false,
    organizationId: 'org-1',
    pipelineId: 'pipeline-1',
    pipelineVersionId: 'pipeline-version-1',
    status: 'SUCCEEDED',
    ...overrides,
  };
}

export function runner(
  overrides: Partial<Runner> & Pick<Runner, 'runnerId'>,
): Runner {
  return {
    serviceAccountId: 'sa-runner',
    labels: [],
    firstSeenAt: now,
    // ONLINE: seen just now, as a runner that asks for work is (one seen in the fixtures' past
    // would read "Silent").
    lastSeenAt: new Date().toISOString(),
    status: 'ONLINE',
    ...overrides,
  };
}

export function stepExecution(
  overrides: Partial<StepExecution> &
    Pick<StepExecution, 'id' | 'pipelineRunId' | 'position' | 'name' | 'type'>,
): StepExecution {
  return {
    status: 'SUCCEEDED',
    attemptEpoch: 1,
    ...overrides,
  };
}

export function iacResource(
  overrides: Partial<IacResource> & Pick<IacResource, 'id' | 'address'>,
): IacResource {
  return {
    createdAt: now,
    updatedAt: now,
    isInCurrentState: true,
    organizationId: 'org-1',
    pipelineRunId: 'run-1',
    provider: 'registry.terraform.io/hashicorp/aws',
    resourceName: 'main',
    resourceType: 'aws_vpc',
    stackId: 'stack-1',
    stepExecutionId: 'step-1',
    tainted: false,
    vendorData: { before: null, after: {} },
    mode: 'managed',
    changeKind: 'NO_OP',
    runType: 'APPLY',
    ...overrides,
  };
}

export function iacExecutionSummary(
  overrides: Partial<IacExecutionSummary> &
    Pick<IacExecutionSummary, 'id' | 'pipelineRunId'>,
): IacExecutionSummary {
  return {
    addCount: 0,
    changeCount: 0,
    destroyCount: 0,
    importCount: 0,
    readCount: 0,
    replaceCount: 0,
    unchangedCount: 0,
    createdAt: now,
    updatedAt: now,
    organizationId: 'org-1',
    pipelineId: 'pipeline-1',
    runType: 'PLAN',
    stepExecutionId: 'step-1',
    applyable: true,
    stackId: 'stack-1',
    ...overrides,
  };
}

/**
 * A text matcher for text split over several elements: the innermost element whose whole
 * text content is `text`.
 */
export function byTextContent(text: string | RegExp) {
  const matches = (content: string | null | undefined) =>
    typeof text === 'string' ? content === text : text.test(content ?? '');
  return (_: string, element: Element | null) =>
    Boolean(element) &&
    matches(element!.textContent) &&
    Array.from(element!.children).every(child => !matches(child.textContent));
}

/** A self-hosted GitHub Enterprise server as the service lists it. */
export function gitSelfHostedServer(
  overrides: Partial<GitSelfHostedServer> = {},
): GitSelfHostedServer {
  return {
    id: 'gs1',
    organizationId: 'o1',
    name: 'Corporate GitHub',
    baseUrl: 'https://github.example.com',
    clientId: 'Iv1.abc',
    loggedIn: false,
    createdById: 'm1',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** A pipeline as the service lists it; a stack's pipelines are named `<stack>: change`. */
export function pipeline(
  overrides: Partial<Pipeline> & Pick<Pipeline, 'id'>,
): Pipeline {
  return {
    createdAt: now,
    updatedAt: now,
    givenId: overrides.id,
    name: overrides.id,
    organizationId: 'org-1',
    projectId: 'project-1',
    ...overrides,
  };
}

/** A connected AWS account on the latest role version, unless overridden. */
export function cloudAccount(
  overrides: Partial<CloudAccount> & Pick<CloudAccount, 'id'>,
): CloudAccount {
  return {
    createdAt: now,
    updatedAt: now,
    givenId: overrides.id,
    name: overrides.id,
    organizationId: 'org-1',
    status: 'CONNECTED',
    cloudId: '123456789012',
    cloudRef: 'arn:aws:iam::123456789012:role/infra-delivery',
    latestRoleVersion: '3',
    latestRoleVersionDescription: 'Reads CloudWatch metrics',
    roleVersion: '3',
    ...overrides,
  };
}
