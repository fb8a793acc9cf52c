import fc from 'fast-check';
import { z } from 'zod';

type JsonSchema = Record<string, any>;

/** Longest strings and arrays generated where a schema allows more: requests stay small. */
const MAX_STRING = 80;
const MAX_ITEMS = 4;

/**
 * Values for a zod schema, generated from its JSON Schema (zod 4's `toJSONSchema`, the same
 * source the OpenAPI document is generated from; zod-fast-check reads zod 3's internals only).
 *
 * With `wrongness` above 0, every value and every property is replaced by arbitrary JSON that
 * often, and required properties may be left out, so one arbitrary yields requests that
 * are valid, nearly valid and wrong in one place or several. Refinements the JSON Schema cannot
 * carry (e.g. "exactly one of") are left to the server to refuse.
 */
export function arbitraryFor(
  schema: z.ZodType,
  options: { wrongness?: number } = {},
): fc.Arbitrary<unknown> {
  const root = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return fromJsonSchema(root, root, options.wrongness ?? 0);
}

function wrongOr(
  arbitrary: fc.Arbitrary<unknown>,
  wrongness: number,
): fc.Arbitrary<unknown> {
  if (wrongness <= 0) {
    return arbitrary;
  }
  const wrongWeight = Math.max(1, Math.round(wrongness * 10));
  return fc.oneof(
    { weight: 10 - Math.min(9, wrongWeight), arbitrary },
    {
      weight: Math.min(9, wrongWeight),
      arbitrary: fc.jsonValue({ maxDepth: 2 }),
    },
  );
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING),
  );
  const fits = (value: string) =>
    value.length >= minLength && value.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'date-time':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map(date => date.toISOString());
    case 'uri':
    case 'url':
      return fc.webUrl().filter(fits);
    case 'uuid':
      return fc.uuid();
    default:
  }
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern), { size: 'xsmall' })
        .filter(fits);
    } catch {
      // fast-check cannot generate from every regex (lookaheads): plain text, mostly refused.
    }
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberFor(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    schema.minimum ??
    (schema.exclusiveMinimum !== undefined
      ? schema.exclusiveMinimum + (schema.type === 'integer' ? 1 : 1e-9)
      : undefined);
  const max =
    schema.maximum ??
    (schema.exclusiveMaximum !== undefined
      ? schema.exclusiveMaximum - (schema.type === 'integer' ? 1 : 1e-9)
      : undefined);
  if (schema.type === 'integer') {
    return fc.integer({
      min: Math.max(min ?? -1e9, Number.MIN_SAFE_INTEGER),
      max: Math.min(max ?? 1e9, Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({
    min: min ?? -1e9,
    max: max ?? 1e9,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectFor(
  schema: JsonSchema,
  root: JsonSchema,
  wrongness: number,
): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  if (Object.keys(properties).length === 0) {
    return fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }),
      schema.additionalProperties &&
        Object.keys(schema.additionalProperties).length
        ? fromJsonSchema(schema.additionalProperties, root, wrongness)
        : fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: MAX_ITEMS },
    );
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      fromJsonSchema(property, root, wrongness),
    ]),
  );
  // Wrong requests may lack required properties too.
  const requiredKeys =
    wrongness > 0 ? [] : [...required].filter(name => name in model);
  return fc.record(model, { requiredKeys });
}

function fromJsonSchema(
  schema: JsonSchema,
  root: JsonSchema,
  wrongness: number,
): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/$defs/', '');
    return fromJsonSchema(root.$defs[name], root, wrongness);
  }
  let arbitrary: fc.Arbitrary<unknown>;
  if (schema.const !== undefined) {
    arbitrary = fc.constant(schema.const);
  } else if (schema.enum) {
    arbitrary = fc.constantFrom(...(schema.enum as unknown[]));
  } else if (schema.anyOf || schema.oneOf) {
    arbitrary = fc.oneof(
      ...((schema.anyOf ?? schema.oneOf) as JsonSchema[]).map(option =>
        fromJsonSchema(option, root, wrongness),
      ),
    );
  } else if (schema.allOf) {
    arbitrary = fromJsonSchema(schema.allOf[0], root, wrongness);
  } else if (Array.isArray(schema.type)) {
    arbitrary = fc.oneof(
      ...schema.type.map((type: string) =>
        fromJsonSchema({ ...schema, type }, root, wrongness),
      ),
    );
  } else {
    switch (schema.type) {
      case 'string':
        arbitrary = stringFor(schema);
        break;
      case 'integer':
      case 'number':
        arbitrary = numberFor(schema);
        break;
      case 'boolean':
        arbitrary = fc.boolean();
        break;
      case 'null':
        arbitrary = fc.constant(null);
        break;
      case 'array':
        arbitrary = fc.array(
          schema.items
            ? fromJsonSchema(schema.items, root, wrongness)
            : fc.jsonValue({ maxDepth: 1 }),
          {
            minLength: schema.minItems ?? 0,
            maxLength: Math.max(
              schema.minItems ?? 0,
              Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS),
            ),
          },
        );
        break;
      case 'object':
        arbitrary = objectFor(schema, root, wrongness);
        break;
      default:
        arbitrary = fc.jsonValue({ maxDepth: 2 });
    }
  }
  return wrongOr(arbitrary, wrongness);
}

/** A generated query value as it travels: text, or repeated text for arrays. */
export function toQueryValue(value: unknown): string | string[] | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (Array.isArray(value)) {
    return value.map(item =>
      typeof item === 'string' ? item : JSON.stringify(item),
    );
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
