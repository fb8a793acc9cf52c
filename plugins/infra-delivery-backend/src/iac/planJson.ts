import { z } from 'zod';
import { InfraDeliveryError } from '../errors';

/**
 * The parts of `terraform show -json` / `tofu show -json` that the service reads. Everything
 * else in a plan is kept out: plans carry provider schemas, configuration and prior state that
 * the service has no use for.
 */
/**
 * The actions Terraform (through 1.x) and OpenTofu plan. Another is refused rather than read
 * as no change: a plan with an action the service does not know was counted as changing
 * nothing, and an approval would have let through what nobody was shown.
 */
const PLANNED_ACTIONS = [
  'no-op',
  'create',
  'read',
  'update',
  'delete',
  'forget',
] as const;

const changeSchema = z.object({
  actions: z.array(z.enum(PLANNED_ACTIONS)).min(1),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  before_sensitive: z.unknown().optional(),
  after_sensitive: z.unknown().optional(),
  importing: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** Addresses are stored and indexed; Terraform's own are far shorter than this. */
const MAX_ADDRESS_LENGTH = 1024;

const resourceChangeSchema = z.object({
  address: z.string().max(MAX_ADDRESS_LENGTH),
  module_address: z.string().max(MAX_ADDRESS_LENGTH).optional(),
  mode: z.enum(['managed', 'data']).optional(),
  type: z.string(),
  name: z.string(),
  index: z.union([z.string(), z.number()]).optional(),
  provider_name: z.string().optional(),
  previous_address: z.string().max(MAX_ADDRESS_LENGTH).optional(),
  action_reason: z.string().optional(),
  change: changeSchema,
});

const outputChangeSchema = z.object({
  actions: z.array(z.string()).optional(),
  after: z.unknown().optional(),
  after_sensitive: z.unknown().optional(),
});

export const planJsonSchema = z.object({
  format_version: z.string().optional(),
  terraform_version: z.string().optional(),
  resource_changes: z.array(resourceChangeSchema).optional().default([]),
  output_changes: z.record(z.string(), outputChangeSchema).optional(),
  errored: z.boolean().optional(),
  /** Terraform ≥ 1.8 and OpenTofu say themselves whether applying would change anything. */
  applyable: z.boolean().optional(),
});

export type PlanJson = z.infer<typeof planJsonSchema>;
export type ResourceChange = z.infer<typeof resourceChangeSchema>;

function unreadable(issues: { path: PropertyKey[]; message: string }[]) {
  return new InfraDeliveryError({
    status: 422,
    entity: 'Plan',
    reason: 'UNREADABLE',
    message:
      'The plan is not the JSON of `terraform show -json` or `tofu show -json`',
    details: [
      {
        title: 'Problems',
        render: 'list',
        items: issues
          .slice(0, 20)
          .map(i => `${i.path.map(String).join('.')}: ${i.message}`),
      },
    ],
  });
}

export function parsePlanJson(value: unknown): PlanJson {
  const result = planJsonSchema.safeParse(value);
  if (!result.success) {
    throw unreadable(result.error.issues);
  }
  return result.data;
}

const PARSE_CHUNK = 100;
const planEnvelopeSchema = planJsonSchema.extend({
  resource_changes: z.array(z.unknown()).optional().default([]),
});

/**
 * The same as parsePlanJson, a chunk of resource changes at a time with a turn of the event
 * loop in between: a 10,000-resource plan would otherwise block every other request while it
 * is validated.
 */
export async function parsePlanJsonInChunks(value: unknown): Promise<PlanJson> {
  const envelope = planEnvelopeSchema.safeParse(value);
  if (!envelope.success) {
    throw unreadable(envelope.error.issues);
  }
  const changes: ResourceChange[] = [];
  const raw = envelope.data.resource_changes;
  for (let offset = 0; offset < raw.length; offset += PARSE_CHUNK) {
    const chunk = z
      .array(resourceChangeSchema)
      .safeParse(raw.slice(offset, offset + PARSE_CHUNK));
    if (!chunk.success) {
      throw unreadable(
        chunk.error.issues.map(issue => ({
          message: issue.message,
          path: [
            'resource_changes',
            Number(issue.path[0]) + offset,
            ...issue.path.slice(1),
          ],
        })),
      );
    }
    changes.push(...chunk.data);
    await new Promise(resolve => setImmediate(resolve));
  }
  return { ...envelope.data, resource_changes: changes };
}

export const SENSITIVE_PLACEHOLDER = '(sensitive value)';

/**
 * Replaces the values a plan marks sensitive (`before_sensitive` / `after_sensitive` masks)
 * by a placeholder, so that secrets never reach the database or a screen.
 */
export function redactSensitive(value: unknown, mask: unknown): unknown {
  if (mask === true) {
    return value === null || value === undefined
      ? value
      : SENSITIVE_PLACEHOLDER;
  }
  if (Array.isArray(value) && Array.isArray(mask)) {
    return value.map((item, i) => redactSensitive(item, mask[i]));
  }
  if (
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    mask &&
    typeof mask === 'object' &&
    !Array.isArray(mask)
  ) {
    const masks = mask as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        redactSensitive(item, masks[key]),
      ]),
    );
  }
  return value;
}
