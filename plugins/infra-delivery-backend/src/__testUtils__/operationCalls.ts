import {
  INGEST_TOKEN_HEADER,
  OperationId,
  Role,
} from '@infra-delivery/plugin-infra-delivery-common';
import { FAKE_GITHUB_HOST } from './fakeGithub';
import { OperationWorld, WORLD_INGEST_TOKEN } from './operationWorld';

/**
 * Who may call an operation: the weakest role, `public` for operations that carry their own
 * checks (every credential is answered alike), or `runner` for the runner protocol, which
 * only service accounts' keys may use.
 */
export type OperationAccess = Role | 'public' | 'runner';

/** One concrete, valid request of an operation against a world's resources. */
export interface OperationCall {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
  /** What a caller who may do it gets (the operation's success status unless given). */
  allowed?: number;
  /** The ErrorBody code of an allowed caller's answer when `allowed` is an error status. */
  allowedCode?: string;
  /**
   * What the other organization's caller gets when the call names this world's resources: a
   * 404 unless given; a filter (not a path) naming them may instead answer 200 with nothing.
   */
  outsider?: number;
  /**
   * What the other organization's caller gets when the call names nothing of this world and
   * its own organization's answer is not the allowed one: it is an ADMIN service account, and
   * what concerns an ADMIN principal (its own keys) is an OWNER's.
   */
  outsiderAtHome?: number;
}

export interface OperationCallSpec {
  access: OperationAccess;
  /**
   * Only members may call it (logins to self-hosted forges belong to people): a service
   * account's key is refused with a 403 before anything is looked up.
   */
  membersOnly?: boolean;
  /** Builds the request; called once per case, so a call may use fresh resources up. */
  call(world: OperationWorld): Promise<OperationCall> | OperationCall;
}

const id = (value: string) => ({ id: value });
const EVENT = {
  version: '0',
  id: 'matrix-event-1',
  'detail-type': 'ECS Service Action',
  source: 'aws.ecs',
  account: '999999999999',
  time: '2026-11-22T10:00:00Z',
  region: 'eu-west-1',
  resources: ['arn:aws:ecs:eu-west-1:999999999999:service/main/nobody'],
  detail: {
    eventType: 'INFO',
    eventName: 'SERVICE_STEADY_STATE',
    clusterArn: 'arn:aws:ecs:eu-west-1:999999999999:cluster/main',
    createdAt: '2026-11-22T10:00:00Z',
  },
};

/**
 * A valid request of every operation of the route table, with the role it needs. The type makes
 * a new operation without an entry a compile error, and the matrix test fails on it too.
 */
export const OPERATION_CALLS: Record<OperationId, OperationCallSpec> = {
  getHealth: { access: 'public', call: () => ({}) },
  getOpenApiDocument: { access: 'public', call: () => ({}) },

  signup: {
    access: 'public',
    call: w => ({
      body: {
        data: {
          email: `matrix-signup-${w.unique()}@example.com`,
          password: 'correct horse battery staple',
        },
      },
    }),
  },
  createAccessToken: {
    access: 'public',
    call: w => ({
      body: { data: { email: w.owner.email, password: w.owner.password } },
    }),
  },
  getCurrentCaller: { access: 'VIEWER', call: () => ({}) },
  getCurrentOrganization: { access: 'VIEWER', call: () => ({}) },
  updateCurrentOrganization: {
    access: 'ADMIN',
    call: () => ({ body: { data: { plan: 'team' } } }),
  },
  createMembership: {
    access: 'ADMIN',
    call: w => ({
      body: {
        data: { email: `invited-${w.unique()}@example.com`, role: 'VIEWER' },
      },
    }),
  },
  listMemberships: { access: 'VIEWER', call: () => ({}) },
  updateMembership: {
    access: 'ADMIN',
    call: async w => ({
      params: id(await w.fresh.invitation()),
      body: { data: { role: 'MEMBER' } },
    }),
  },
  deleteMembership: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.invitation()) }),
  },
  createServiceAccount: {
    access: 'ADMIN',
    call: w => ({
      body: { data: { name: `robot ${w.unique()}`, role: 'VIEWER' } },
    }),
  },
  listServiceAccounts: { access: 'VIEWER', call: () => ({}) },
  getServiceAccount: {
    access: 'VIEWER',
    call: w => ({ params: id(w.serviceAccountId) }),
  },
  deleteServiceAccount: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.serviceAccount()) }),
  },
  listApiKeys: { access: 'VIEWER', call: () => ({}) },
  createApiKey: {
    access: 'VIEWER',
    call: w => ({
      body: { data: { name: `own key ${w.unique()}` } },
      outsiderAtHome: 403,
    }),
  },
  revokeApiKey: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.apiKey()) }),
  },

  createProject: {
    access: 'MEMBER',
    call: w => ({
      body: { data: { givenId: `np-${w.unique()}`, name: 'New project' } },
    }),
  },
  listProjects: { access: 'VIEWER', call: () => ({}) },
  getProject: { access: 'VIEWER', call: w => ({ params: id(w.projectId) }) },
  updateProject: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.projectId),
      body: { data: { description: 'Described' } },
    }),
  },
  deleteProject: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.project()) }),
  },
  createEnvironment: {
    access: 'MEMBER',
    call: w => ({
      params: { projectId: w.projectId },
      body: { data: { givenId: `ne-${w.unique()}`, name: 'New environment' } },
    }),
  },
  listEnvironments: {
    access: 'VIEWER',
    call: w => ({ params: { projectId: w.projectId } }),
  },
  getEnvironment: {
    access: 'VIEWER',
    call: w => ({ params: { projectId: w.projectId, id: w.environmentId } }),
  },
  updateEnvironment: {
    access: 'MEMBER',
    call: w => ({
      params: { projectId: w.projectId, id: w.environmentId },
      body: { data: { description: 'Described' } },
    }),
  },
  deleteEnvironment: {
    access: 'MEMBER',
    call: async w => {
      const environment = await w.fresh.environment();
      return {
        params: { projectId: environment.projectId, id: environment.id },
      };
    },
  },

  createDefaultValueDefinition: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          givenId: `ndv-${w.unique()}`,
          name: 'New default',
          schema: { id: 'zone', label: 'Zone', type: 'string' },
        },
      },
    }),
  },
  updateDefaultValueDefinition: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.defaultValueDefinitionId),
      body: { data: { description: 'Described' } },
    }),
  },
  listDefaultValueDefinitions: { access: 'VIEWER', call: () => ({}) },
  deleteDefaultValueDefinition: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.defaultValueDefinition()) }),
  },

  createPipeline: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          projectId: w.projectId,
          givenId: `npl-${w.unique()}`,
          name: 'New pipeline',
          steps: [{ type: 'approval', name: 'Approve' }],
        },
      },
    }),
  },
  listPipelines: { access: 'VIEWER', call: () => ({}) },
  getPipeline: { access: 'VIEWER', call: w => ({ params: id(w.pipelineId) }) },
  updatePipeline: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.pipelineId),
      body: { data: { description: 'Described' } },
    }),
  },
  createPipelineVersion: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.pipelineId),
      body: { data: { steps: [{ type: 'approval', name: 'Approve' }] } },
    }),
  },
  listPipelineVersions: {
    access: 'VIEWER',
    call: w => ({ params: id(w.pipelineId) }),
  },
  triggerPipelineRun: {
    access: 'MEMBER',
    call: w => ({ params: id(w.pipelineId), body: { data: {} } }),
  },
  listPipelineRuns: { access: 'VIEWER', call: () => ({}) },
  getPipelineRun: { access: 'VIEWER', call: w => ({ params: id(w.runId) }) },
  approvePipelineRun: {
    access: 'MEMBER',
    call: async w => ({
      params: id(await w.fresh.waitingRun()),
      body: { data: {} },
    }),
  },
  rejectPipelineRun: {
    access: 'MEMBER',
    call: async w => ({
      params: id(await w.fresh.waitingRun()),
      body: { data: {} },
    }),
  },
  cancelPipelineRun: {
    access: 'MEMBER',
    call: async w => ({
      params: id(await w.fresh.waitingRun()),
      body: { data: {} },
    }),
  },
  retryPipelineRun: {
    access: 'MEMBER',
    call: async w => ({
      params: id(await w.fresh.cancelledRun()),
      body: { data: {} },
    }),
  },
  listStepExecutions: {
    access: 'VIEWER',
    call: w => ({ params: id(w.runId) }),
  },
  listStepExecutionLogs: {
    access: 'VIEWER',
    call: w => ({ params: id(w.stepExecutionId) }),
  },

  listIacExecutionSummaries: {
    access: 'VIEWER',
    call: w => ({ query: { stackId: w.stackId }, outsider: 200 }),
  },
  listIacResources: {
    access: 'VIEWER',
    call: w => ({ query: { stackId: w.stackId } }),
  },
  listStepExecutionIacResources: {
    access: 'VIEWER',
    call: w => ({ params: id(w.stepExecutionId) }),
  },
  countStackResources: {
    access: 'VIEWER',
    call: w => ({ query: { stackId: w.stackId }, outsider: 200 }),
  },

  createStack: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          projectId: w.projectId,
          environmentId: w.environmentId,
          name: `New stack ${w.unique()}`,
        },
      },
    }),
  },
  listStacks: { access: 'VIEWER', call: () => ({}) },
  getStack: { access: 'VIEWER', call: w => ({ params: id(w.stackId) }) },
  updateStack: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.stackId),
      body: { data: { description: 'Described' } },
    }),
  },
  deleteStack: {
    access: 'MEMBER',
    call: async w => ({ params: id((await w.fresh.stack()).id) }),
  },
  destroyStack: {
    access: 'MEMBER',
    call: async w => ({
      params: id((await w.fresh.stack()).id),
      body: { data: {} },
    }),
  },
  startStackDriftCheck: {
    access: 'MEMBER',
    call: async w => ({
      params: id((await w.fresh.stack()).id),
      body: { data: {} },
      allowed: 409,
      allowedCode: 'InfraDelivery:Stack:NOTHING_DEPLOYED',
    }),
  },
  reconcileStackDrift: {
    access: 'MEMBER',
    call: async w => ({
      params: id((await w.fresh.stack()).id),
      body: { data: {} },
      allowed: 409,
      allowedCode: 'InfraDelivery:Stack:NOT_DRIFTED',
    }),
  },

  listRunners: { access: 'VIEWER', call: () => ({}) },
  claimStepExecution: {
    access: 'runner',
    call: () => ({
      body: { data: { runnerId: 'matrix-runner' } },
      allowed: 204,
    }),
  },
  signOffRunner: {
    access: 'runner',
    call: () => ({
      body: { data: { runnerId: 'matrix-runner' } },
      allowed: 204,
    }),
  },
  heartbeatStepExecution: {
    access: 'runner',
    call: w => ({
      params: id(w.stepExecutionId),
      body: { data: { leaseToken: 'not-the-lease-of-this-step' } },
      allowed: 409,
    }),
  },
  appendStepExecutionLogs: {
    access: 'runner',
    call: w => ({
      params: id(w.stepExecutionId),
      body: {
        data: {
          leaseToken: 'not-the-lease-of-this-step',
          lines: [{ text: 'x' }],
        },
      },
      allowed: 409,
    }),
  },
  completeStepExecution: {
    access: 'runner',
    call: w => ({
      params: id(w.stepExecutionId),
      body: {
        data: { leaseToken: 'not-the-lease-of-this-step', status: 'SUCCEEDED' },
      },
      allowed: 409,
    }),
  },

  createCloudAccount: {
    access: 'ADMIN',
    call: w => ({
      body: {
        data: {
          givenId: `naws-${w.unique()}`,
          name: 'New account',
          cloudId: w.uniqueCloudId(),
        },
      },
    }),
  },
  listCloudAccounts: { access: 'VIEWER', call: () => ({}) },
  getCloudAccount: {
    access: 'VIEWER',
    call: w => ({ params: id(w.cloudAccountId) }),
  },
  updateCloudAccount: {
    access: 'ADMIN',
    call: w => ({
      params: id(w.cloudAccountId),
      body: { data: { name: `${w.marker} account` } },
    }),
  },
  deleteCloudAccount: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.cloudAccount()) }),
  },
  getCloudAccountTemplateUrl: {
    access: 'ADMIN',
    call: w => ({ params: id(w.cloudAccountId) }),
  },
  getCloudAccountOnboardingTemplate: {
    access: 'public',
    call: w => ({ params: id(w.cloudAccountId), query: w.templateQuery }),
  },
  completeCloudAccountOnboarding: {
    access: 'public',
    call: w => ({
      body: {
        data: {
          cloudAccountId: w.cloudAccountId,
          token: 'not-an-onboarding-token',
          roleArn: 'arn:aws:iam::123456789012:role/matrix',
          stackId: 'matrix-stack',
        },
      },
      allowed: 401,
    }),
  },
  connectCloudAccountLocally: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.cloudAccount()) }),
  },
  getCloudMetric: {
    access: 'VIEWER',
    call: w => {
      const end = new Date(Date.now() - 60_000);
      end.setUTCSeconds(0, 0);
      return {
        query: {
          cloudAccountId: w.cloudAccountId,
          region: 'eu-west-1',
          namespace: 'AWS/ECS',
          metricName: 'CPUUtilization',
          statistic: 'Average',
          period: '300',
          startTime: new Date(end.getTime() - 3_600_000).toISOString(),
          endTime: end.toISOString(),
        },
      };
    },
  },

  createCodeSource: {
    access: 'MEMBER',
    call: w => {
      const repo = w.fresh.repository();
      return {
        body: {
          data: {
            forgeInstallationId: repo.installationId,
            repoUrl: repo.repoUrl,
            type: 'HOSTED_FORGE',
          },
        },
      };
    },
  },
  listCodeSources: { access: 'VIEWER', call: () => ({}) },
  getCodeSource: {
    access: 'VIEWER',
    call: w => ({ params: id(w.codeSourceId) }),
  },
  verifyCodeSource: {
    access: 'MEMBER',
    call: w => ({ params: id(w.codeSourceId) }),
  },
  deleteCodeSource: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.codeSource()) }),
  },
  getModuleYamlExists: {
    access: 'VIEWER',
    call: w => ({ params: id(w.codeSourceId) }),
  },

  createModuleDefinition: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          givenId: `nm-${w.unique()}`,
          name: 'New module',
          codeSourceId: w.codeSourceId,
          path: '',
        },
      },
    }),
  },
  listModuleDefinitions: { access: 'VIEWER', call: () => ({}) },
  getModuleDefinition: {
    access: 'VIEWER',
    call: w => ({ params: id(w.moduleDefinitionId) }),
  },
  updateModuleDefinition: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.moduleDefinitionId),
      body: { data: { description: 'Described' } },
    }),
  },
  deleteModuleDefinition: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.moduleDefinition()) }),
  },
  createModuleVersion: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.moduleDefinitionId),
      body: {
        data: { version: `2.0.${w.unique().replace('-', '')}`, ref: 'main' },
      },
    }),
  },
  listModuleVersions: {
    access: 'VIEWER',
    call: w => ({ params: id(w.moduleDefinitionId) }),
  },
  getModuleVersion: {
    access: 'VIEWER',
    call: w => ({ params: id(w.moduleVersionId) }),
  },
  createModuleInstance: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          moduleVersionId: w.moduleVersionId,
          environmentId: w.environmentId,
          name: `New instance ${w.unique()}`,
        },
      },
    }),
  },
  listModuleInstances: { access: 'VIEWER', call: () => ({}) },
  getModuleInstance: {
    access: 'VIEWER',
    call: w => ({ params: id(w.moduleInstanceId) }),
  },
  updateModuleInstance: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.moduleInstanceId),
      body: { data: { values: { size: 'large' } } },
    }),
  },
  deleteModuleInstance: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.moduleInstance()) }),
  },

  createGitSelfHostedServer: {
    access: 'ADMIN',
    call: w => ({
      body: {
        data: {
          name: `New forge ${w.unique()}`,
          baseUrl: 'https://ghe.example.com/',
          clientId: 'Iv1.matrix',
          clientSecret: 'matrix-secret',
        },
      },
    }),
  },
  listGitSelfHostedServers: { access: 'VIEWER', call: () => ({}) },
  getGitSelfHostedServer: {
    access: 'VIEWER',
    call: w => ({ params: id(w.gitSelfHostedServerId) }),
  },
  deleteGitSelfHostedServer: {
    access: 'ADMIN',
    call: async w => ({ params: id(await w.fresh.gitSelfHostedServer()) }),
  },
  startGitSelfHostedLogin: {
    access: 'VIEWER',
    membersOnly: true,
    call: w => ({
      params: { gitSelfHostedServerId: w.gitSelfHostedServerId },
    }),
  },
  getGitSelfHostedLoginUrl: {
    access: 'VIEWER',
    membersOnly: true,
    call: w => ({
      params: { gitSelfHostedServerId: w.gitSelfHostedServerId },
    }),
  },
  completeGitSelfHostedLogin: {
    access: 'VIEWER',
    membersOnly: true,
    call: () => ({ query: { state: 'not-a-state', code: 'x' }, allowed: 400 }),
  },
  listGitForgeNamespaceRepositories: {
    access: 'VIEWER',
    membersOnly: true,
    call: w => ({
      params: { namespaceId: 'acme' },
      query: {
        serverId: w.gitSelfHostedServerId,
        namespaceType: 'ORGANIZATION',
      },
      allowed: 403,
      allowedCode: 'InfraDelivery:GitSelfHostedLogin:REQUIRED',
    }),
  },
  streamGitForgeNamespaceRepositories: {
    access: 'VIEWER',
    membersOnly: true,
    call: w => ({
      params: { namespaceId: 'acme' },
      query: {
        serverId: w.gitSelfHostedServerId,
        namespaceType: 'ORGANIZATION',
      },
      allowed: 403,
      allowedCode: 'InfraDelivery:GitSelfHostedLogin:REQUIRED',
    }),
  },

  listDeployments: { access: 'VIEWER', call: () => ({}) },
  getDeployment: {
    access: 'VIEWER',
    call: w => ({ params: id(w.deploymentId) }),
  },
  createDeployment: {
    access: 'MEMBER',
    call: w => ({
      body: {
        data: {
          cloudAccountId: w.cloudAccountId,
          region: 'eu-west-1',
          environmentId: w.environmentId,
          clusterRef: 'main',
          serviceRef: `new-${w.unique()}`,
          taskDefinition: {
            family: 'web',
            containerDefinitions: [
              { name: 'app', image: 'registry.example.com/web:2' },
            ],
          },
        },
      },
    }),
  },
  rollbackDeployment: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.rollbackTarget()) }),
  },
  continueDeployment: {
    access: 'MEMBER',
    call: w => ({ params: id(w.deploymentId), allowed: 409 }),
  },
  cancelDeployment: {
    access: 'MEMBER',
    call: w => ({
      params: id(w.deploymentId),
      allowed: 409,
      allowedCode: 'InfraDelivery:Deployment:NOT_CANCELLABLE',
    }),
  },
  redeployDeployment: {
    access: 'MEMBER',
    call: async w => ({ params: id(await w.fresh.succeededDeployment()) }),
  },
  ingestInfrastructureEvent: {
    access: 'public',
    call: () => ({
      body: EVENT,
      headers: { [INGEST_TOKEN_HEADER]: WORLD_INGEST_TOKEN },
    }),
  },
  listInfrastructureEvents: {
    access: 'VIEWER',
    call: w => ({ query: { deploymentId: w.deploymentId }, outsider: 200 }),
  },
  receiveGithubWebhook: {
    access: 'public',
    call: w => {
      const delivery = w.github.delivery('ping', {
        zen: 'Keep it logically awesome.',
        hook_id: 1,
      });
      return {
        params: { forgeHost: FAKE_GITHUB_HOST, appId: String(w.github.appId) },
        body: delivery.body,
        headers: delivery.headers,
      };
    },
  },
  listWebhookDeliveries: { access: 'VIEWER', call: () => ({}) },
};
