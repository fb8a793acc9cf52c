import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { createActionContext } from './ActionContext';
import { registerListStacksAction } from './listStacksAction';
import { registerListRunsAction } from './listRunsAction';
import { registerGetRunAction } from './getRunAction';
import { registerGetMetricAction } from './getMetricAction';
import { registerTriggerPlanAction } from './triggerPlanAction';
import { registerApproveRunAction } from './approveRunAction';
import { registerListDeploymentsAction } from './listDeploymentsAction';
import { registerRollbackDeploymentAction } from './rollbackDeploymentAction';
import { registerGetStackDriftAction } from './getStackDriftAction';

/** What the tools need: the registry, and the plugin's services and caller resolution. */
export interface RegisterActionsOptions {
  actionsRegistry: ActionsRegistryService;
  context: Parameters<typeof createActionContext>[0];
}

/**
 * Registers the tools of the service with the actions registry, which exposes them to MCP
 * clients (through `@backstage/plugin-mcp-actions-backend`) and to other plugins. Every tool
 * acts as the caller the registry hands it: the same caller resolution, roles, organization
 * scoping and permission checks as the REST API, through the same services. One file per tool.
 */
export async function registerActions(
  options: RegisterActionsOptions,
): Promise<void> {
  const { actionsRegistry, context } = options;
  const tools = createActionContext(context);
  registerListStacksAction(actionsRegistry, tools);
  registerListRunsAction(actionsRegistry, tools);
  registerGetRunAction(actionsRegistry, tools);
  registerGetMetricAction(actionsRegistry, tools);
  registerTriggerPlanAction(actionsRegistry, tools);
  registerApproveRunAction(actionsRegistry, tools);
  registerListDeploymentsAction(actionsRegistry, tools);
  registerRollbackDeploymentAction(actionsRegistry, tools);
  registerGetStackDriftAction(actionsRegistry, tools);
}
