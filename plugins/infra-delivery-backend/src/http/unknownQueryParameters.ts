import { z } from 'zod';

/**
 * For an operation's query schema, the check of a request's query: one issue per parameter the
 * operation does not take. Without it a misspelled filter (`/pipeline-runs?stackId=…` for
 * `attachedEntityId`) was dropped, and the answer listed everything the filter was meant to
 * narrow: a script that then cancels "its" runs would act on all of them. The names it takes
 * are read once, when the operation is bound, not per request.
 */
export function unknownQueryParameterCheck(
  schema: z.ZodType | undefined,
): (query: Record<string, unknown>) => z.core.$ZodIssue[] {
  const known = new Set(
    schema instanceof z.ZodObject ? Object.keys(schema.shape) : [],
  );
  const message = `is not a parameter of this operation (${
    known.size > 0
      ? `it takes ${[...known].sort().join(', ')}`
      : 'it takes no query parameters'
  })`;
  return query =>
    Object.keys(query)
      .filter(name => !known.has(name))
      .map(name => ({
        code: 'custom',
        path: [name],
        message,
        input: query[name],
      }));
}
