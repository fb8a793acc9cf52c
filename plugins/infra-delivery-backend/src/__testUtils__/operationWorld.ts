import { followLocalDeployments } from './localDeployments';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { createStores } from '../database/stores';
import { commitSha, FakeGithub } from './fakeGithub';
import { FakeGitHubEnterprise } from './fakeGitHubEnterprise';
import { createStack, expectStatus } from './pipelineFixtures';
import { InfraDeliveryTestClient, TestOrganization } from './testBackend';

/** Deployments stay IN_PROGRESS until a test's own tick moves the clock. */
export const WORLD_STAGE_MILLIS = 3_600_000;
export const WORLD_INGEST_TOKEN = 'matrix-ingest-token-0123456789abcdef0123';
export const WORLD_CLOUD_ID = '123456789012';

const MODULE_REF = commitSha('matrix-main');
const MODULE_YAML = `
inputs:
  - id: size
    label: Size
    type: string
    default: small
`;

/** The backend configuration a world needs besides the fakes' own. */
export function worldConfig(github: FakeGithub) {
  return {
    ...github.config(),
    infraDelivery: {
      rateLimits: {
        signup: { limit: 100000 },
        tokenPerAddress: { limit: 100000 },
      },
      deployments: { localStageMillis: WORLD_STAGE_MILLIS },
      events: { ingestToken: WORLD_INGEST_TOKEN },
    },
  };
}

/** The credentials a matrix case calls with. */
export type CredentialCase =
  | 'no token'
  | 'malformed token'
  | 'expired access token'
  | 'revoked API key'
  | 'API key of another organization'
  | 'VIEWER'
  | 'MEMBER'
  | 'ADMIN';

export const CREDENTIAL_CASES: readonly CredentialCase[] = [
  'no token',
  'malformed token',
  'expired access token',
  'revoked API key',
  'API key of another organization',
  'VIEWER',
  'MEMBER',
  'ADMIN',
];

/**
 * One organization with at least one of every resource the REST surface addresses, seeded
 * through the API by its owner, callers of every role, and credentials that must not work.
 * `secrets` are strings only this organization's callers may ever see: its resources' ids,
 * its marker-tagged names and its owner's address.
 */
export interface OperationWorld {
  api: InfraDeliveryTestClient;
  /** The fake forge the world's code sources live on; it signs webhook deliveries. */
  github: FakeGithub;
  owner: TestOrganization;
  tokens: Record<CredentialCase, string | undefined>;
  /** Tagged into names of the world's resources, so a leaked name is found. */
  marker: string;
  projectId: string;
  environmentId: string;
  stackId: string;
  stackChangePipelineId: string;
  pipelineId: string;
  runId: string;
  stepExecutionId: string;
  serviceAccountId: string;
  apiKeyId: string;
  membershipId: string;
  cloudAccountId: string;
  templateQuery: Record<string, string>;
  deploymentId: string;
  defaultValueDefinitionId: string;
  codeSourceId: string;
  moduleDefinitionId: string;
  moduleVersionId: string;
  moduleInstanceId: string;
  gitSelfHostedServerId: string;
  secrets(): string[];
  /** A unique suffix for names and given ids. */
  unique(): string;
  /** A 12-digit AWS account id no other registration of the test file uses. */
  uniqueCloudId(): string;
  fresh: FreshResources;
}

/** New resources of the world's organization, for calls that use theirs up. */
export interface FreshResources {
  project(): Promise<string>;
  environment(): Promise<{ projectId: string; id: string }>;
  stack(): Promise<{ id: string; changePipelineId: string }>;
  waitingRun(): Promise<string>;
  cancelledRun(): Promise<string>;
  invitation(): Promise<string>;
  serviceAccount(): Promise<string>;
  apiKey(): Promise<string>;
  /** An account of its own AWS account id (one is registered once), or of `cloudId`. */
  cloudAccount(cloudId?: string): Promise<string>;
  succeededDeployment(serviceRef?: string): Promise<string>;
  /** A succeeded deployment that a later succeeded one of its service replaced. */
  rollbackTarget(): Promise<string>;
  codeSource(): Promise<string>;
  defaultValueDefinition(): Promise<string>;
  repository(): { installationId: string; repoUrl: string };
  moduleDefinition(): Promise<string>;
  moduleInstance(): Promise<string>;
  gitSelfHostedServer(): Promise<string>;
}

let worldCounter = 0;
let cloudIdCounter = 0;
const uniqueCloudId = () => String(300_000_000_000 + ++cloudIdCounter);

export async function createOperationWorld(options: {
  api: InfraDeliveryTestClient;
  knex: Knex;
  github: FakeGithub;
  enterprise: FakeGitHubEnterprise;
}): Promise<OperationWorld> {
  const { api, knex, github, enterprise } = options;
  worldCounter += 1;
  const marker = `matrixworld${worldCounter}x${Date.now().toString(36)}`;
  let counter = 0;
  const unique = () => {
    counter += 1;
    return `${worldCounter}-${counter}`;
  };
  const owner = await api.signup();
  const token = owner.token;
  const ids: string[] = [owner.organizationId];

  async function created(path: string, body: unknown): Promise<any> {
    const response = await api.post(path, body, token);
    expectStatus(response, 201);
    ids.push(response.body.data.id);
    return response.body.data;
  }

  /** Resources the fresh ones build on, filled in as the world is seeded. */
  const seeded = {
    pipelineId: '',
    environmentId: '',
    cloudAccountId: '',
    codeSourceId: '',
    moduleVersionId: '',
  };

  const tick = (hoursLater: number) =>
    followLocalDeployments(knex, WORLD_STAGE_MILLIS, hoursLater);

  const repository = () => {
    const name = `matrix-${unique()}`;
    const installationId = String(70_000 + worldCounter * 1000 + counter);
    github.addRepository({
      owner: 'acme',
      name,
      id: 700_000 + worldCounter * 1000 + counter,
      branches: { main: MODULE_REF },
      tags: { 'v1.0.0': MODULE_REF },
      commits: { [MODULE_REF]: { 'module.yaml': MODULE_YAML } },
    });
    github.install(installationId, [`acme/${name}`]);
    return { installationId, repoUrl: github.repoUrl('acme', name) };
  };

  const fresh: FreshResources = {
    project: async () =>
      (
        await created('/projects', {
          data: { givenId: `p-${unique()}`, name: `${marker} project` },
        })
      ).id,
    environment: async () => {
      const projectId = await fresh.project();
      const environment = await created(`/projects/${projectId}/environments`, {
        data: { givenId: `e-${unique()}`, name: `${marker} environment` },
      });
      return { projectId, id: environment.id };
    },
    stack: async () => {
      const { projectId, id } = await fresh.environment();
      const stack = await createStack(api, owner, {
        projectId,
        environmentId: id,
        name: `${marker} stack ${unique()}`,
      });
      ids.push(stack.id, stack.changePipelineId, stack.destroyPipelineId);
      return { id: stack.id, changePipelineId: stack.changePipelineId };
    },
    waitingRun: async () => {
      const response = await api.post(
        `/pipelines/${seeded.pipelineId}/runs`,
        { data: {} },
        token,
      );
      expectStatus(response, 201);
      ids.push(response.body.data.id);
      return response.body.data.id;
    },
    cancelledRun: async () => {
      const runId = await fresh.waitingRun();
      expectStatus(
        await api.post(`/pipeline-runs/${runId}/cancel`, { data: {} }, token),
        200,
      );
      return runId;
    },
    invitation: async () =>
      (
        await created('/memberships', {
          data: { email: `invitee-${unique()}@example.com`, role: 'VIEWER' },
        })
      ).id,
    serviceAccount: async () =>
      (
        await created('/service-accounts', {
          data: { name: `${marker} robot ${unique()}`, role: 'MEMBER' },
        })
      ).id,
    // A MEMBER service account's key: an ADMIN revokes it (an OWNER's keys are an OWNER's).
    apiKey: async () =>
      (
        await created('/api-keys', {
          data: {
            name: `${marker} key`,
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: await fresh.serviceAccount(),
          },
        })
      ).id,
    cloudAccount: async (cloudId = uniqueCloudId()) =>
      (
        await created('/cloud-accounts', {
          data: {
            givenId: `aws-${unique()}`,
            name: `${marker} account`,
            cloudId,
          },
        })
      ).id,
    succeededDeployment: async (serviceRef = `svc-${unique()}`) => {
      const deployment = await created('/deployments', {
        data: {
          cloudAccountId: seeded.cloudAccountId,
          region: 'eu-west-1',
          environmentId: seeded.environmentId,
          clusterRef: 'main',
          serviceRef,
          taskDefinition: {
            family: 'web',
            containerDefinitions: [
              { name: 'app', image: 'registry.example.com/web:1' },
            ],
          },
        },
      });
      await tick(10);
      return deployment.id;
    },
    rollbackTarget: async () => {
      const serviceRef = `svc-${unique()}`;
      const target = await fresh.succeededDeployment(serviceRef);
      await fresh.succeededDeployment(serviceRef);
      return target;
    },
    repository,
    codeSource: async () => {
      const repo = repository();
      return (
        await created('/code-sources', {
          data: {
            forgeInstallationId: repo.installationId,
            repoUrl: repo.repoUrl,
            type: 'HOSTED_FORGE',
          },
        })
      ).id;
    },
    defaultValueDefinition: async () =>
      (
        await created('/default-value-definitions', {
          data: {
            givenId: `dv-${unique()}`,
            name: `${marker} default`,
            schema: { id: 'region', label: 'Region', type: 'string' },
          },
        })
      ).id,
    moduleDefinition: async () =>
      (
        await created('/module-definitions', {
          data: {
            givenId: `m-${unique()}`,
            name: `${marker} module`,
            codeSourceId: seeded.codeSourceId,
            path: '',
          },
        })
      ).id,
    moduleInstance: async () =>
      (
        await created('/module-instances', {
          data: {
            moduleVersionId: seeded.moduleVersionId,
            environmentId: seeded.environmentId,
            name: `${marker} instance ${unique()}`,
          },
        })
      ).id,
    gitSelfHostedServer: async () =>
      (
        await created('/gitforge/self-hosted', {
          data: {
            name: `${marker} forge ${unique()}`,
            baseUrl: `${enterprise.baseUrl}/`,
            clientId: enterprise.clientId,
            clientSecret: enterprise.clientSecret,
          },
        })
      ).id,
  };

  seeded.pipelineId = (
    await created('/pipelines', {
      data: {
        projectId: await fresh.project(),
        givenId: `pl-${unique()}`,
        name: `${marker} pipeline`,
        steps: [{ type: 'approval', name: 'Approve' }],
      },
    })
  ).id;
  const { projectId, id: environmentId } = await fresh.environment();
  seeded.environmentId = environmentId;
  const stack = await fresh.stack();
  const runId = await fresh.waitingRun();
  const steps = await api.get(`/pipeline-runs/${runId}/step-executions`, token);
  expectStatus(steps, 200);
  const stepExecutionId: string = steps.body.data[0].id;
  ids.push(stepExecutionId);
  const serviceAccountId = await fresh.serviceAccount();
  const apiKeyId = await fresh.apiKey();
  const cloudAccountId = await fresh.cloudAccount(WORLD_CLOUD_ID);
  seeded.cloudAccountId = cloudAccountId;
  expectStatus(
    await api.post(
      `/cloud-accounts/${cloudAccountId}/connect-local`,
      {},
      token,
    ),
    200,
  );
  const templateUrl = await api.get(
    `/cloud-accounts/${cloudAccountId}/template-url`,
    token,
  );
  expectStatus(templateUrl, 200);
  const templateQuery = Object.fromEntries(
    new URL(templateUrl.body.data.templateUrl).searchParams,
  );
  const deploymentId = await fresh.succeededDeployment();
  const defaultValueDefinitionId = await fresh.defaultValueDefinition();
  const codeSourceId = await fresh.codeSource();
  seeded.codeSourceId = codeSourceId;
  const moduleDefinitionId = await fresh.moduleDefinition();
  seeded.moduleVersionId = (
    await created(`/module-definitions/${moduleDefinitionId}/versions`, {
      data: { version: '1.0.0', ref: 'v1.0.0' },
    })
  ).id;
  const { pipelineId, moduleVersionId } = seeded;
  const moduleInstanceId = await fresh.moduleInstance();
  const gitSelfHostedServerId = await fresh.gitSelfHostedServer();

  const member = async (role: Exclude<Role, 'OWNER'>) =>
    (await api.member(owner, role)).token;
  const viewer = await api.member(owner, 'VIEWER');
  ids.push(viewer.membershipId);

  const revokedKey = await api.post(
    '/api-keys',
    { data: { name: `${marker} revoked` } },
    token,
  );
  expectStatus(revokedKey, 201);
  expectStatus(
    await api.delete(`/api-keys/${revokedKey.body.data.id}`, token),
    204,
  );

  const memberships = await api.get('/memberships', token);
  const ownerMembershipId = memberships.body.data.find(
    (m: { email?: string }) => m.email === owner.email,
  )?.id;
  const signingKey = await createStores(knex).serviceSecrets.getOrCreate(
    'access-token-signing-key',
  );
  const { accessToken: expiredToken } = await new AccessTokenIssuer(
    signingKey,
  ).issue(
    { organizationId: owner.organizationId, membershipId: ownerMembershipId },
    new Date(Date.now() - 2 * 3600_000),
  );

  const outsider = await api.signup();
  const outsiderRobot = await api.post(
    '/service-accounts',
    { data: { name: 'outsider robot', role: 'ADMIN' } },
    outsider.token,
  );
  expectStatus(outsiderRobot, 201);
  const outsiderKey = await api.post(
    '/api-keys',
    {
      data: {
        name: 'outsider key',
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: outsiderRobot.body.data.id,
      },
    },
    outsider.token,
  );
  expectStatus(outsiderKey, 201);

  return {
    api,
    github,
    owner,
    tokens: {
      'no token': undefined,
      'malformed token': 'not.a-valid.token',
      'expired access token': expiredToken,
      'revoked API key': revokedKey.body.data.key,
      'API key of another organization': outsiderKey.body.data.key,
      VIEWER: viewer.token,
      MEMBER: await member('MEMBER'),
      ADMIN: await member('ADMIN'),
    },
    marker,
    projectId,
    environmentId,
    stackId: stack.id,
    stackChangePipelineId: stack.changePipelineId,
    pipelineId,
    runId,
    stepExecutionId,
    serviceAccountId,
    apiKeyId,
    membershipId: viewer.membershipId,
    cloudAccountId,
    templateQuery,
    deploymentId,
    defaultValueDefinitionId,
    codeSourceId,
    moduleDefinitionId,
    moduleVersionId,
    moduleInstanceId,
    gitSelfHostedServerId,
    secrets: () => [...ids, marker, owner.email],
    unique,
    uniqueCloudId,
    fresh,
  };
}
