import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';

/** A validator's wording as a person reads it beside a field. */
export function readableIssue(message: string): string {
  const atMost = /^Too big: expected string to have <=(\d+) characters?$/.exec(
    message,
  );
  if (atMost) return `At most ${atMost[1]} characters`;
  if (/^Too small: expected string to have >=1 characters?$/.test(message)) {
    return 'Required';
  }
  const atLeast =
    /^Too small: expected string to have >=(\d+) characters?$/.exec(message);
  if (atLeast) return `At least ${atLeast[1]} characters`;
  if (message === 'Invalid URL') return 'Not a URL (https://…)';
  return message;
}

/**
 * The service's validation issues of a request body, by the field they name
 * (`body.data.name: Too big…` → `name`), worded for a person; undefined unless every issue
 * names one of `fields`, so that nothing is lost when they are shown beside them instead. A
 * form whose fields are not the body's own (`schema.default` shown as Value) says which field
 * a path is about with `fieldOfPath`. A name in use (409 `NAME_TAKEN`) is said beside the name.
 */
export function fieldErrorsOf(
  error: Error | undefined,
  fields: string[],
  fieldOfPath: (path: string) => string | undefined = path =>
    fields.includes(path) ? path : undefined,
): Record<string, string> | undefined {
  // A name another of its kind has (a service account's, unique in the organization).
  if (
    error instanceof InfraDeliveryApiError &&
    error.status === 409 &&
    error.body.code.endsWith(':NAME_TAKEN') &&
    fields.includes('name')
  ) {
    return { name: 'In use: choose another name' };
  }
  if (
    !(error instanceof InfraDeliveryApiError) ||
    error.status !== 400 ||
    !error.body.details?.length
  ) {
    return undefined;
  }
  const errors: Record<string, string> = {};
  for (const item of error.body.details.flatMap(d => d.items ?? [])) {
    const issue = /^body\.data\.([\w.]+): (.+)$/.exec(item);
    const field = issue ? fieldOfPath(issue[1]) : undefined;
    if (!issue || !field) {
      return undefined;
    }
    errors[field] ??= readableIssue(issue[2]);
  }
  return Object.keys(errors).length ? errors : undefined;
}
