import { JsonSchema } from './openApiDocument';

/** Follows a schema's `$ref` (the document's `resolve`). */
export type Resolve = (schema: JsonSchema) => JsonSchema;

/** The first variant of a union that is not `null`, or the schema itself. */
export function mainVariant(schema: JsonSchema, resolve: Resolve): JsonSchema {
  const variants: JsonSchema[] | undefined =
    schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (!variants) {
    return schema;
  }
  const first =
    variants.map(resolve).find(variant => variant.type !== 'null') ??
    variants[0];
  return mainVariant(resolve(first), resolve);
}

/** The JSON type a schema asks for; `any` for free-form JSON. */
export function typeOf(
  schema: JsonSchema,
  resolve: Resolve,
): 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any' {
  const main = mainVariant(resolve(schema), resolve);
  const type = Array.isArray(main.type)
    ? main.type.find((t: string) => t !== 'null')
    : main.type;
  if (type) {
    return type;
  }
  const fixed = main.const ?? main.enum?.[0];
  if (typeof fixed === 'string') {
    return 'string';
  }
  if (typeof fixed === 'number') {
    return 'number';
  }
  if (typeof fixed === 'boolean') {
    return 'boolean';
  }
  return main.properties ? 'object' : 'any';
}

/** A schema's pattern as JavaScript reads it (zod writes them from JavaScript regexes). */
function patternOf(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

const MATCHES_PATTERN_UNITS = ['a', '1', 'A', 'a1', 'a-', 'x.'];

/**
 * A text of exactly `length` characters that the string schema accepts, where a simple one
 * exists (an e-mail address, a URL, a run of letters or digits matching its pattern).
 */
export function textOfLength(
  schema: JsonSchema,
  length: number,
): string | undefined {
  const pattern =
    typeof schema.pattern === 'string' ? patternOf(schema.pattern) : undefined;
  const fits = (text: string) =>
    text.length === length && (!pattern || pattern.test(text));
  const candidates: string[] = [];
  if (schema.format === 'email') {
    const domain = '@example.com';
    candidates.push(
      `${'a'.repeat(Math.max(1, length - domain.length))}${domain}`,
    );
  } else if (schema.format === 'uri' || schema.format === 'url') {
    const origin = 'https://example.com/';
    candidates.push(
      `${origin}${'a'.repeat(Math.max(0, length - origin.length))}`,
    );
  } else if (schema.format === 'date-time') {
    candidates.push('2026-01-01T00:00:00Z');
  }
  for (const unit of MATCHES_PATTERN_UNITS) {
    candidates.push(unit.repeat(length).slice(0, length));
  }
  return candidates.find(fits);
}

/** A valid value of `schema`, as simple as the schema allows. */
export function exampleOf(
  schema: JsonSchema,
  resolve: Resolve,
  depth = 0,
): unknown {
  const main = mainVariant(resolve(schema), resolve);
  if (main.const !== undefined) {
    return main.const;
  }
  if (main.enum) {
    return main.enum[0];
  }
  if (main.default !== undefined) {
    return main.default;
  }
  switch (typeOf(main, resolve)) {
    case 'string':
      return (
        textOfLength(main, Math.max(1, main.minLength ?? 1)) ??
        textOfLength(main, Math.max(8, main.minLength ?? 8)) ??
        'a'
      );
    case 'integer':
    case 'number':
      return Math.min(
        main.maximum ?? Number.MAX_SAFE_INTEGER,
        Math.max(main.minimum ?? 1, 1),
      );
    case 'boolean':
      return false;
    case 'array':
      return depth > 8 || !main.items
        ? []
        : Array.from({ length: main.minItems ?? 0 }, () =>
            exampleOf(main.items, resolve, depth + 1),
          );
    case 'object':
      return Object.fromEntries(
        (depth > 8 ? [] : (main.required as string[] | undefined) ?? []).map(
          name => [
            name,
            exampleOf(main.properties?.[name] ?? {}, resolve, depth + 1),
          ],
        ),
      );
    default:
      return {};
  }
}
