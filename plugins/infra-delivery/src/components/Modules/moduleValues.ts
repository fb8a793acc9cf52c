import {
  DefaultValueDefinition,
  InfraDeliveryApiError,
  ModuleInput,
  ModuleValues,
  valueProblems,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * What an empty field of the input falls back on: the default of the default-value definition
 * it names, then its own, as the service resolves it; undefined when there is none.
 */
export function fallbackOf(
  input: ModuleInput,
  defaults: Map<string, DefaultValueDefinition>,
): { value: string; from?: string } | undefined {
  const shared = input.default_from
    ? defaults.get(input.default_from)
    : undefined;
  if (shared?.schema.default !== undefined) {
    return { value: shared.schema.default, from: shared.name };
  }
  return input.default !== undefined ? { value: input.default } : undefined;
}

/** Whether an input needs a value from the person: required, with no default to fall back on. */
export function needsValue(
  input: ModuleInput,
  defaults: Map<string, DefaultValueDefinition>,
): boolean {
  return Boolean(input.required) && !fallbackOf(input, defaults)?.value;
}

/**
 * What is wrong with a value as typed, by the input's own rules as the service checks them (its
 * patterns, its allowed values). An empty value is not wrong yet.
 */
export function valueProblem(
  input: ModuleInput,
  value: string,
): string | undefined {
  return value ? valueProblems(input, value)[0] : undefined;
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

/**
 * What a change of an instance sends for its values: each input of the chosen version whose
 * field differs from the instance's value, `null` for one emptied (its default applies again);
 * undefined when nothing changed.
 */
export function changedValues(
  inputIds: string[],
  typed: Record<string, string>,
  current: ModuleValues,
): Record<string, string | null> | undefined {
  const changes: Record<string, string | null> = {};
  for (const id of inputIds) {
    const value = typed[id] ?? '';
    if (value.trim() === '') {
      if (current[id] !== undefined) changes[id] = null;
    } else if (value !== current[id]) {
      changes[id] = value;
    }
  }
  return Object.keys(changes).length ? changes : undefined;
}

/**
 * The instance's values a version would not take (no input of it has their id, or names it in
 * `moved_from`): moving the instance to that version forgets them.
 */
export function droppedValues(
  current: ModuleValues,
  inputs: ModuleInput[],
): [string, string][] {
  return Object.entries(current).filter(
    ([id]) =>
      !inputs.some(input => input.id === id || input.moved_from?.includes(id)),
  );
}
