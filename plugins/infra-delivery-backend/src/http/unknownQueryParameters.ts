import { z } from 'zod';

/**
 * The query parameters an operation does not take, one issue each. Without this a misspelled
 * filter (`/pipeline-runs?stackId=…` for `attachedEntityId`) was dropped, and the answer listed
 * everything the filter was meant to narrow: a script that then cancels "its" runs would act on
 * all of them.
 */
export function unknownQueryParameterIssues(
  schema: z.ZodType | undefined,
  query: Record<string, unknown>,
): z.core.$ZodIssue[] {
  const names = Object.keys(query);
  if (names.length === 0) return [];
  const known =
    schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];
  const taken =
    known.length > 0
      ? `it takes ${known.join(', ')}`
      : 'it takes no query parameters';
  return names
    .filter(name => !known.includes(name))
    .map(name => ({
      code: 'custom',
      path: [name],
      message: `is not a parameter of this operation (${taken})`,
      input: query[name],
    }));
}
