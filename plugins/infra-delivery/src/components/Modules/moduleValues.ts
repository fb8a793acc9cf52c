import {
  InfraDeliveryApiError,
  ModuleInput,
  ModuleValues,
} from '@infra-delivery/plugin-infra-delivery-common';

/** Whether an input needs a value from the person: required, with no default to fall back on. */
export function needsValue(input: ModuleInput): boolean {
  return Boolean(
    input.required && input.default === undefined && !input.default_from,
  );
}

/**
 * What is wrong with a value as typed, by the input's own rules (its patterns, its allowed
 * values): said while the person types. An empty value is not wrong yet.
 */
export function valueProblem(
  input: ModuleInput,
  value: string,
): string | undefined {
  if (!value) return undefined;
  if (input.values?.length && !input.values.some(o => o.value === value)) {
    return 'Not one of the allowed values';
  }
  for (const { pattern, message } of input.patterns ?? []) {
    let matches = true;
    try {
      matches = new RegExp(pattern).test(value);
    } catch {
      // A pattern this browser cannot compile is left to the service.
    }
    if (!matches) return message;
  }
  return undefined;
}

/** The values to send: those the person gave; an empty field takes the input's default. */
export function givenValues(values: Record<string, string>): ModuleValues {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value.trim() !== ''),
  );
}

/**
 * The service's 400 about an instance's values (`values.cidr: is required`) by input id, to say
 * beside each field; undefined unless every problem names an input of `inputIds`, so that
 * nothing is lost when they are shown there instead of in the error panel.
 */
export function valueErrorsOf(
  error: Error | undefined,
  inputIds: string[],
): Record<string, string> | undefined {
  if (!(error instanceof InfraDeliveryApiError) || error.status !== 400) {
    return undefined;
  }
  const items = error.body.details?.flatMap(d => d.items ?? []) ?? [];
  const errors: Record<string, string> = {};
  for (const item of items) {
    const problem = /^values\.([^:]+): (.+)$/.exec(item);
    if (!problem || !inputIds.includes(problem[1])) return undefined;
    const message = problem[2];
    errors[problem[1]] ??= message.charAt(0).toUpperCase() + message.slice(1);
  }
  return Object.keys(errors).length ? errors : undefined;
}
