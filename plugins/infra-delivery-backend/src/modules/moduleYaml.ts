import {
  ModuleInput,
  moduleInputSchema,
  valueProblems,
} from '@infra-delivery/plugin-infra-delivery-common';
import { parseDocument } from 'yaml';
import { z } from 'zod';

export const MODULE_YAML = 'module.yaml';

/**
 * `module.yaml` as the service reads it: a mapping whose `inputs` list the module's inputs.
 * Other top-level keys belong to other tools and are left alone; keys of an input are checked
 * strictly, so that a misspelt `requried: true` is reported rather than ignored.
 */
const moduleYamlSchema = z.looseObject({
  inputs: z.array(moduleInputSchema.strict()).max(500).optional(),
});

export type ModuleYamlResult =
  | { ok: true; inputs: ModuleInput[] }
  | { ok: false; problems: string[] };

function issuePath(path: PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number'
        ? `[${part}]`
        : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** Where `module.yaml` lives in a module's directory (`''` for the repository root). */
export function moduleYamlPath(directory: string): string {
  const trimmed = directory.replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/${MODULE_YAML}` : MODULE_YAML;
}

/**
 * Parses `module.yaml` and lists every problem: YAML syntax (with line and column), the shape
 * of each input, ids declared twice, and defaults that their own input would refuse.
 * Whether the default-value definitions named in `default_from` exist is the caller's check.
 */
export function parseModuleYaml(text: string): ModuleYamlResult {
  const document = parseDocument(text, {
    uniqueKeys: true,
    prettyErrors: true,
  });
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map(
        // The first line names the error and its position; the rest is a code excerpt.
        error =>
          `not valid YAML: ${error.message.split('\n')[0].replace(/:$/, '')}`,
      ),
    };
  }
  let content: unknown;
  try {
    // Aliases are expanded only up to the library's limit, so a "billion laughs" file is refused.
    content = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return {
      ok: false,
      problems: [`not valid YAML: ${(error as Error).message}`],
    };
  }
  if (content === null || content === undefined) {
    return { ok: false, problems: ['the file is empty; expected `inputs:`'] };
  }
  const parsed = moduleYamlSchema.safeParse(content);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(issue => {
        const path = issuePath(issue.path);
        return path ? `${path}: ${issue.message}` : issue.message;
      }),
    };
  }
  const inputs = parsed.data.inputs ?? [];
  const problems: string[] = [];
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    if (seen.has(input.id)) {
      problems.push(
        `inputs[${index}].id: ${JSON.stringify(input.id)} is declared twice`,
      );
    }
    seen.add(input.id);
    if (input.default !== undefined) {
      for (const problem of valueProblems(input, input.default)) {
        problems.push(`inputs[${index}].default: ${problem}`);
      }
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, inputs };
}
