import { ModuleInput } from './schemas';

/** How many allowed values a problem names before it stops listing them. */
const LISTED_OPTIONS = 10;

function quote(value: string): string {
  return JSON.stringify(value);
}

/**
 * What is wrong with one value of an input, as the service checks it and the portal's forms say
 * it while a person types: not one of the allowed `values`, or failing
 * `patterns`. An empty value of an optional input is not matched against the patterns.
 */
export function valueProblems(
  input: Pick<ModuleInput, 'required' | 'patterns' | 'values'>,
  value: string,
): string[] {
  const problems: string[] = [];
  const options = input.values ?? [];
  if (options.length > 0 && !options.some(option => option.value === value)) {
    const listed = options.slice(0, LISTED_OPTIONS).map(o => quote(o.value));
    const more = options.length > LISTED_OPTIONS ? ', …' : '';
    problems.push(
      `${quote(value)} is not one of the allowed values (${listed.join(
        ', ',
      )}${more})`,
    );
  }
  if (value !== '' || input.required) {
    for (const { pattern, message } of input.patterns ?? []) {
      if (!new RegExp(pattern, 'u').test(value)) {
        problems.push(message);
      }
    }
  }
  return problems;
}
