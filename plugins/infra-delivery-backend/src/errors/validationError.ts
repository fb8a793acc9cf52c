import { z } from 'zod';
import { InfraDeliveryError } from './InfraDeliveryError';

/** Where a request value came from, named in the error's details. */
export type RequestPart = 'path' | 'query' | 'body';

function describeIssue(part: RequestPart, issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return `${part}${path ? `.${path}` : ''}: ${issue.message}`;
}

/** A 400 whose details list every zod issue of the request, one line each. */
export function validationError(
  part: RequestPart,
  error: z.ZodError,
): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 400,
    entity: 'Request',
    reason: 'VALIDATION_FAILED',
    message: `The request ${part} is not valid`,
    details: [
      {
        title: 'Validation issues',
        render: 'list',
        items: error.issues.map(issue => describeIssue(part, issue)),
      },
    ],
  });
}
