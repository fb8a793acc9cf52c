import {
  iacChangeKindOf,
  IacChangeKind,
  IacResourceChangeActions,
  InfraDeliveryClient,
  readPages,
  RunnerClaim,
} from '@infra-delivery/plugin-infra-delivery-common';

/** What a plan changes: each resource's change kind by address, changes that leave it be left out. */
export type PlannedChanges = Map<string, IacChangeKind>;

const LEAVES_BE: readonly IacChangeKind[] = ['NO_OP', 'READ'];

/** The plan an apply or destroy step carries out: the run's plan step, as the service has it. */
export interface ApprovedPlan {
  stepName: string;
  changes: PlannedChanges;
}

function plannedChanges(
  changes: { address: string; changeKind: IacChangeKind }[],
): PlannedChanges {
  return new Map(
    changes
      .filter(change => !LEAVES_BE.includes(change.changeKind))
      .map(change => [change.address, change.changeKind]),
  );
}

/** The changes of a plan as `show -json` gives it. */
export function changesOfPlanJson(
  planJson: Record<string, unknown>,
): PlannedChanges {
  const changes = (planJson.resource_changes ??
    []) as (IacResourceChangeActions & {
    address: string;
  })[];
  return plannedChanges(
    changes.map(change => ({
      address: change.address,
      changeKind: iacChangeKindOf(change),
    })),
  );
}

const RESOURCES_PAGE = 500;

/**
 * The plan that the step being run carries out: the latest plan step of its run that succeeded
 * before it, with the changes the service took from that step's report. None when the run has
 * no such step (a pipeline that applies without planning first).
 */
export async function readApprovedPlan(
  client: InfraDeliveryClient,
  claim: RunnerClaim,
): Promise<ApprovedPlan | undefined> {
  const { data: steps } = await client.call('listStepExecutions', {
    params: { id: claim.pipelineRun.id },
  });
  const plan = steps
    .filter(
      step =>
        step.type === 'iac.plan' &&
        step.status === 'SUCCEEDED' &&
        step.position < claim.stepExecution.position,
    )
    .at(-1);
  if (!plan) {
    return undefined;
  }
  const { items } = await readPages(cursor =>
    client.call('listStepExecutionIacResources', {
      params: { id: plan.id },
      query: { limit: RESOURCES_PAGE, ...(cursor ? { cursor } : {}) },
    }),
  );
  return { stepName: plan.name, changes: plannedChanges(items) };
}

const described = (kind: IacChangeKind | undefined) =>
  kind ? kind.toLowerCase() : 'no change';

/**
 * How the plan made now differs from the approved one, a line per resource ("aws_vpc.main:
 * update approved, replace now"), in address order; empty when they are the same.
 */
export function planDifferences(
  approved: PlannedChanges,
  now: PlannedChanges,
): string[] {
  const addresses = [...new Set([...approved.keys(), ...now.keys()])].sort();
  return addresses
    .filter(address => approved.get(address) !== now.get(address))
    .map(
      address =>
        `${address}: ${described(approved.get(address))} approved, ${described(
          now.get(address),
        )} now`,
    );
}

/** The plan made for an apply or destroy differs from the approved one: nothing is applied. */
export class PlanChanged extends Error {}

/** Differences written to the step's logs; the rest are counted. */
const LOGGED_DIFFERENCES = 100;

/**
 * Checks the plan just made for an apply or destroy step against the plan that was approved,
 * so that what is applied is what someone approved: state, code or variables that changed in
 * between (or a runner that planned other code) would apply changes nobody reviewed. Throws
 * `PlanChanged`, with the differences in the logs, when they differ. `reading` reads the
 * approved plan (the runner tries again while the service cannot be reached).
 */
export async function checkAgainstApprovedPlan(
  client: InfraDeliveryClient,
  claim: RunnerClaim,
  planJson: Record<string, unknown>,
  log: (line: string) => void,
  reading: <T>(read: () => Promise<T>) => Promise<T> = read => read(),
): Promise<void> {
  let approved;
  try {
    approved = await reading(() => readApprovedPlan(client, claim));
  } catch (error) {
    throw new Error(
      `Cannot read the approved plan, so nothing was applied: ${
        (error as Error).message
      }`,
    );
  }
  if (!approved) {
    log('No plan step precedes this step: applying the plan made now');
    return;
  }
  const differences = planDifferences(
    approved.changes,
    changesOfPlanJson(planJson),
  );
  if (differences.length === 0) {
    log(
      `The plan matches the approved plan of step "${approved.stepName}" (${approved.changes.size} changes)`,
    );
    return;
  }
  log(
    `The plan differs from the approved plan of step "${approved.stepName}" in ${differences.length} resources:`,
  );
  differences.slice(0, LOGGED_DIFFERENCES).forEach(line => log(`  ${line}`));
  if (differences.length > LOGGED_DIFFERENCES) {
    log(`  … and ${differences.length - LOGGED_DIFFERENCES} more`);
  }
  throw new PlanChanged(
    `The plan changed since it was approved (${differences[0]}${
      differences.length > 1 ? `, and ${differences.length - 1} more` : ''
    }): nothing was applied. Start a new run to plan and review the changes`,
  );
}
