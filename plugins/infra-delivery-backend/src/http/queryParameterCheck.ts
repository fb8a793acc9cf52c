import { z } from 'zod';

/**
 * For an operation's query schema, the check of a request's query that its schema cannot make:
 *
 * - one issue per parameter the operation does not take. Without it a misspelled filter
 *   (`/pipeline-runs?stackId=…` for `attachedEntityId`) was dropped, and the answer listed
 *   everything the filter was meant to narrow: a script that then cancels "its" runs would act
 *   on all of them;
 * - one per parameter given twice (`?limit=1&limit=2`) or with brackets (`?limit[a]=1`) that
 *   takes one plain value: its schema saw an array or an object and said "expected number,
 *   received NaN";
 * - one per parameter holding a NUL character, which PostgreSQL refuses in any text.
 *
 * What the operation takes is read once, when the operation is bound, not per request.
 */
export function queryParameterCheck(
  schema: z.ZodType | undefined,
): (query: Record<string, unknown>) => z.core.$ZodIssue[] {
  const shape = schema instanceof z.ZodObject ? schema.shape : {};
  const known = new Set(Object.keys(shape));
  const repeatable = new Set(
    Object.keys(shape).filter(name => takesRepeats(shape[name])),
  );
  const unknown = `is not a parameter of this operation (${
    known.size > 0
      ? `it takes ${[...known].sort().join(', ')}`
      : 'it takes no query parameters'
  })`;
  return query => {
    const issues: z.core.$ZodIssue[] = [];
    for (const [name, value] of Object.entries(query)) {
      const message = !known.has(name)
        ? unknown
        : misshapenValue(value, repeatable.has(name));
      if (message) {
        issues.push({ code: 'custom', path: [name], message, input: value });
      }
    }
    return issues;
  };
}

function misshapenValue(value: unknown, repeatable: boolean) {
  if ([value].flat().some(v => typeof v === 'string' && v.includes('\u0000'))) {
    // PostgreSQL refuses it in any text: an id filter with %00 was a 500.
    return 'must not contain a NUL character (%00)';
  }
  if (Array.isArray(value) && value.length > 1) {
    return repeatable
      ? undefined
      : `is given ${value.length} times; give it once`;
  }
  if (!repeatable && value !== null && typeof value === 'object') {
    return 'must be a plain value (no brackets after its name)';
  }
  return undefined;
}

/** Whether a parameter's schema takes several values (`repeatableQuery`). */
function takesRepeats(schema: z.ZodType): boolean {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return takesRepeats(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) {
    return takesRepeats(schema.out as z.ZodType);
  }
  return schema instanceof z.ZodArray;
}
