import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  DRIFT_STATUSES,
  DRIFTED_CHANGE_KINDS,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ActionContext } from './ActionContext';

/** Drifted resources a tool answer carries at most; the REST API (#14) pages through all. */
const MAX_RESOURCES = 50;

/**
 * `get-stack-drift`: a stack's drift as its latest drift check found it, with the resources
 * that drifted (before and after) and what to do about it.
 */
export function registerGetStackDriftAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { asCaller } = context;
  const { stacks, iacResults } = context.services;

  actionsRegistry.register({
    name: 'get-stack-drift',
    title: 'Get the drift of an IaC stack',
    description:
      "Whether an infrastructure-as-code stack still matches its code, as its latest drift check (a plan-only run) found it: IN_SYNC, DRIFTED or UNKNOWN (never checked, or the check failed), with the drifted resources' before and after. A drifted stack is reconciled through its change pipeline (POST /stacks/{id}/reconcile in the REST API, or the portal's Reconcile button).",
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object({ stackId: z.string().min(1).max(64) }),
      output: z =>
        z.object({
          stackId: z.string(),
          name: z.string(),
          driftStatus: z.enum(DRIFT_STATUSES),
          driftedResourceCount: z.number().optional(),
          lastDriftCheckAt: z.string().optional(),
          lastDriftCheckRunId: z.string().optional(),
          driftCheckIntervalHours: z
            .number()
            .optional()
            .describe('Hours between scheduled checks; absent: none scheduled'),
          nextDriftCheckAt: z.string().optional(),
          driftedResources: z.array(
            z.object({
              address: z.string(),
              changeKind: z.string(),
              before: z.unknown(),
              after: z.unknown(),
            }),
          ),
          moreResources: z
            .boolean()
            .describe(
              `True when more than ${MAX_RESOURCES} resources drifted: list them all with GET /iac-resources?pipelineRunId=<lastDriftCheckRunId>`,
            ),
        }),
    },
    examples: [{ title: 'A stack', input: { stackId: '01JSTACK' } }],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const stack = await stacks.get(caller, input.stackId);
        const resources = stack.lastDriftCheckRunId
          ? await iacResults.listResources(
              caller,
              { pipelineRunId: stack.lastDriftCheckRunId },
              // Ordered by change kind, drifted first: one page past the cap tells whether
              // more drifted.
              { limit: MAX_RESOURCES + 1 },
            )
          : { items: [] };
        const drifted = resources.items.filter(
          resource =>
            resource.mode === 'managed' &&
            DRIFTED_CHANGE_KINDS.includes(resource.changeKind),
        );
        return {
          output: {
            stackId: stack.id,
            name: stack.name,
            driftStatus: stack.driftStatus,
            ...(stack.driftedResourceCount !== undefined
              ? { driftedResourceCount: stack.driftedResourceCount }
              : {}),
            ...(stack.lastDriftCheckAt
              ? { lastDriftCheckAt: stack.lastDriftCheckAt }
              : {}),
            ...(stack.lastDriftCheckRunId
              ? { lastDriftCheckRunId: stack.lastDriftCheckRunId }
              : {}),
            ...(stack.driftCheckIntervalHours
              ? { driftCheckIntervalHours: stack.driftCheckIntervalHours }
              : {}),
            ...(stack.nextDriftCheckAt
              ? { nextDriftCheckAt: stack.nextDriftCheckAt }
              : {}),
            driftedResources: drifted.slice(0, MAX_RESOURCES).map(resource => ({
              address: resource.address,
              changeKind: resource.changeKind,
              before: resource.vendorData.before,
              after: resource.vendorData.after,
            })),
            moreResources: drifted.length > MAX_RESOURCES,
          },
        };
      }),
  });
}
