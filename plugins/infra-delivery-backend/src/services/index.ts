import { AuditorService } from '@backstage/backend-plugin-api';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { Authorizer } from '../auth/Authorizer';
import { Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { ApiKeyService } from './ApiKeyService';
import { DefaultValueDefinitionService } from './DefaultValueDefinitionService';
import { IacResultService } from './IacResultService';
import { IdentityService } from './IdentityService';
import { MembershipService } from './MembershipService';
import { PipelineService } from './PipelineService';
import { ProjectService } from './ProjectService';
import { RunnerService } from './RunnerService';
import { ServiceAccountService } from './ServiceAccountService';
import { StackService } from './StackService';

/** The domain services, one per resource group. */
export interface Services {
  identity: IdentityService;
  memberships: MembershipService;
  serviceAccounts: ServiceAccountService;
  apiKeys: ApiKeyService;
  projects: ProjectService;
  defaultValueDefinitions: DefaultValueDefinitionService;
  pipelines: PipelineService;
  stacks: StackService;
  runners: RunnerService;
  iacResults: IacResultService;
}

export function createServices(deps: {
  stores: Stores;
  authorizer: Authorizer;
  auditor: AuditorService;
  accessTokens: AccessTokenIssuer;
  engine: PipelineEngine;
}): Services {
  return {
    identity: new IdentityService(deps),
    memberships: new MembershipService(deps),
    serviceAccounts: new ServiceAccountService(deps),
    apiKeys: new ApiKeyService(deps),
    projects: new ProjectService(deps),
    defaultValueDefinitions: new DefaultValueDefinitionService(deps),
    pipelines: new PipelineService(deps),
    stacks: new StackService(deps),
    runners: new RunnerService(deps),
    iacResults: new IacResultService(deps),
  };
}
