import { AuditorService } from '@backstage/backend-plugin-api';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { Authorizer } from '../auth/Authorizer';
import { Stores } from '../database/stores';
import { ApiKeyService } from './ApiKeyService';
import { DefaultValueDefinitionService } from './DefaultValueDefinitionService';
import { IdentityService } from './IdentityService';
import { MembershipService } from './MembershipService';
import { ProjectService } from './ProjectService';
import { ServiceAccountService } from './ServiceAccountService';

/** The domain services, one per resource group. */
export interface Services {
  identity: IdentityService;
  memberships: MembershipService;
  serviceAccounts: ServiceAccountService;
  apiKeys: ApiKeyService;
  projects: ProjectService;
  defaultValueDefinitions: DefaultValueDefinitionService;
}

export function createServices(deps: {
  stores: Stores;
  authorizer: Authorizer;
  auditor: AuditorService;
  accessTokens: AccessTokenIssuer;
}): Services {
  return {
    identity: new IdentityService(deps),
    memberships: new MembershipService(deps),
    serviceAccounts: new ServiceAccountService(deps),
    apiKeys: new ApiKeyService(deps),
    projects: new ProjectService(deps),
    defaultValueDefinitions: new DefaultValueDefinitionService(deps),
  };
}
