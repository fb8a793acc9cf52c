import {
  ModuleInput,
  ModuleValues,
  ValueSchema,
  valueProblems,
} from '@infra-delivery/plugin-infra-delivery-common';

function quote(value: string): string {
  return JSON.stringify(value);
}

/** Where a value came from, named in problems about defaults. */
type ValueOrigin =
  | { kind: 'given' }
  | { kind: 'definition'; givenId: string }
  | { kind: 'input-default' };

/** The default of an input: its default-value definition's first, then its own. */
function defaultOf(
  input: ModuleInput,
  definitions: Map<string, ValueSchema>,
): { value: string; origin: ValueOrigin } | undefined {
  if (input.default_from) {
    const fromDefinition = definitions.get(input.default_from)?.default;
    if (fromDefinition !== undefined) {
      return {
        value: fromDefinition,
        origin: { kind: 'definition', givenId: input.default_from },
      };
    }
  }
  if (input.default !== undefined) {
    return { value: input.default, origin: { kind: 'input-default' } };
  }
  return undefined;
}

function label(id: string, origin: ValueOrigin): string {
  switch (origin.kind) {
    case 'definition':
      return `values.${id} (default from ${quote(origin.givenId)})`;
    case 'input-default':
      return `values.${id} (default of the input)`;
    default:
      return `values.${id}`;
  }
}

export interface ResolvedModuleValues {
  /** Every input that has a value: the given ones and the defaults applied. */
  values: ModuleValues;
  /** One line per problem, `values.<id>: …`; empty when the values are valid. */
  problems: string[];
}

/**
 * Validates an instance's values against a version's inputs and fills the defaults in:
 * unknown inputs, required inputs without a value, allowed values and patterns (of given
 * values and of defaults alike), and, when the instance had values before, immutable inputs
 * that would change.
 */
export function resolveModuleValues(options: {
  inputs: ModuleInput[];
  given: ModuleValues;
  /** Schemas of the default-value definitions the inputs name, by givenId. */
  definitions: Map<string, ValueSchema>;
  /** The instance's values before this change; absent when it is created. */
  previous?: ModuleValues;
}): ResolvedModuleValues {
  const { inputs, given, definitions, previous } = options;
  const problems: string[] = [];
  const values: ModuleValues = {};
  const inputIds = new Set(inputs.map(input => input.id));

  for (const id of Object.keys(given).sort()) {
    if (!inputIds.has(id)) {
      problems.push(`values.${id}: is not an input of this module version`);
    }
  }

  for (const input of inputs) {
    const givenValue = given[input.id];
    const missing =
      givenValue === undefined || (input.required && givenValue === '');
    const fallback = missing ? defaultOf(input, definitions) : undefined;
    const resolved = missing
      ? fallback
      : { value: givenValue, origin: { kind: 'given' as const } };

    if (!resolved || (input.required && resolved.value === '')) {
      if (input.required) {
        const hint =
          input.default_from && !definitions.has(input.default_from)
            ? ` (its default-value definition ${quote(
                input.default_from,
              )} does not exist)`
            : '';
        problems.push(`values.${input.id}: is required${hint}`);
      }
    } else {
      for (const problem of valueProblems(input, resolved.value)) {
        problems.push(`${label(input.id, resolved.origin)}: ${problem}`);
      }
      values[input.id] = resolved.value;
    }

    const before = previous?.[input.id];
    if (
      input.immutable &&
      before !== undefined &&
      values[input.id] !== before
    ) {
      problems.push(
        `values.${input.id}: is immutable and keeps ${quote(before)}`,
      );
    }
  }
  return { values, problems };
}

/**
 * Values carried to another version of a module: those of inputs it still has, and those of
 * inputs it renamed (an input's `moved_from` names its former ids). Values of inputs it no
 * longer has are left behind.
 */
export function carryModuleValues(
  values: ModuleValues,
  inputs: ModuleInput[],
): ModuleValues {
  const carried: ModuleValues = {};
  for (const input of inputs) {
    if (values[input.id] !== undefined) {
      carried[input.id] = values[input.id];
      continue;
    }
    const formerId = (input.moved_from ?? []).find(
      id => values[id] !== undefined,
    );
    if (formerId !== undefined) {
      carried[input.id] = values[formerId];
    }
  }
  return carried;
}

/**
 * Problems of moving an instance to a version that would forget one of its immutable values:
 * an input fixed once set that the version neither has nor renames. Moved to such a version
 * and back, the input was empty and took any value (a VPC's CIDR block changed, which
 * replaces the VPC).
 */
export function droppedImmutableValues(
  values: ModuleValues,
  from: ModuleInput[],
  to: ModuleInput[],
  toVersion: string,
): string[] {
  const kept = new Set(
    to.flatMap(input => [input.id, ...(input.moved_from ?? [])]),
  );
  return from
    .filter(
      input =>
        input.immutable &&
        values[input.id] !== undefined &&
        !kept.has(input.id),
    )
    .map(
      input =>
        `values.${input.id}: is immutable and keeps ${quote(
          values[input.id],
        )}; version ${toVersion} has no input ${input.id} to keep it in`,
    );
}
