import { iacChangeKindOf } from '@infra-delivery/plugin-infra-delivery-common';
import {
  PlanJson,
  redactSensitive,
  ResourceChange,
  SENSITIVE_PLACEHOLDER,
} from './planJson';
import { CHANGE_KIND_PRIORITY, PlannedResource } from '../domain/iacChanges';

function indexKeyOf(change: ResourceChange): string | undefined {
  return change.index === undefined ? undefined : String(change.index);
}

export function plannedResourceOf(change: ResourceChange): PlannedResource {
  const changeKind = iacChangeKindOf(change);
  return {
    address: change.address,
    moduleAddress: change.module_address,
    mode: change.mode ?? 'managed',
    resourceType: change.type,
    resourceName: change.name,
    indexKey: indexKeyOf(change),
    provider: change.provider_name,
    changeKind,
    changePriority: CHANGE_KIND_PRIORITY.indexOf(changeKind),
    tainted: change.action_reason === 'replace_because_tainted',
    previousAddress: change.previous_address,
    vendorData: {
      before: redactSensitive(
        change.change.before ?? null,
        change.change.before_sensitive,
      ),
      after: redactSensitive(
        change.change.after ?? null,
        change.change.after_sensitive,
      ),
    },
  };
}

export function plannedResourcesOf(plan: PlanJson): PlannedResource[] {
  return plan.resource_changes.map(plannedResourceOf);
}

const MAP_CHUNK = 200;

/**
 * The same as plannedResourcesOf, with a turn of the event loop every MAP_CHUNK changes:
 * redacting a 10,000-resource plan in one go held the process for over 100 ms.
 */
export async function plannedResourcesInChunks(
  plan: PlanJson,
): Promise<PlannedResource[]> {
  const resources: PlannedResource[] = [];
  const changes = plan.resource_changes;
  for (let offset = 0; offset < changes.length; offset += MAP_CHUNK) {
    for (const change of changes.slice(offset, offset + MAP_CHUNK)) {
      resources.push(plannedResourceOf(change));
    }
    await new Promise(resolve => setImmediate(resolve));
  }
  return resources;
}

/**
 * The outputs a runner reported after an apply, as the stack keeps them: a value as the
 * reference runner sends it, or an entry of `terraform output -json` (`{ value, type,
 * sensitive }`) as another client may; sensitive ones redacted, by the entry's own flag or by
 * the applied plan's `after_sensitive` mask. The reference runner redacts before it sends;
 * a VIEWER read another client's secrets in plain text.
 */
export function reportedOutputsOf(
  outputs: Record<string, unknown>,
  plan?: PlanJson,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, reported]) => {
      const entry = outputJsonEntry(reported);
      let value = entry ? entry.value : reported;
      if (entry?.sensitive) {
        value = SENSITIVE_PLACEHOLDER;
      }
      return [
        name,
        redactSensitive(value, plan?.output_changes?.[name]?.after_sensitive),
      ];
    }),
  );
}

/** An entry of `terraform output -json`: only `value`, `type` and a boolean `sensitive`. */
function outputJsonEntry(
  reported: unknown,
): { value: unknown; sensitive: boolean } | undefined {
  if (!reported || typeof reported !== 'object' || Array.isArray(reported)) {
    return undefined;
  }
  const entry = reported as Record<string, unknown>;
  const keys = Object.keys(entry);
  return 'value' in entry &&
    typeof entry.sensitive === 'boolean' &&
    keys.every(key => key === 'value' || key === 'type' || key === 'sensitive')
    ? { value: entry.value, sensitive: entry.sensitive }
    : undefined;
}

/** The root module's outputs after an apply, sensitive ones redacted. */
export function rootOutputsOf(plan: PlanJson): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(plan.output_changes ?? {}).map(([name, change]) => [
      name,
      redactSensitive(change.after ?? null, change.after_sensitive),
    ]),
  );
}
