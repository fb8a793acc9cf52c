import { JsonSchema } from './openApiDocument';
import { exampleOf, Resolve } from './schemaExamples';

/** Deeper fields than this are not walked (the deepest request field is 6 levels down). */
const MAX_DEPTH = 7;

/** One field of a request body, wherever it is nested. */
export interface BodyField {
  /** Keys from the body down; `0` for an array's first item. */
  path: (string | number)[];
  /** `containers[i]` is the schema of the value at `path.slice(0, i)`. */
  containers: JsonSchema[];
  schema: JsonSchema;
  /** The last key that is a name (for an array's item, the array's). */
  name: string;
}

function variantsOf(schema: JsonSchema, resolve: Resolve): JsonSchema[] {
  const variants: JsonSchema[] | undefined =
    schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (!variants) {
    return [schema];
  }
  return variants
    .map(resolve)
    .filter(variant => variant.type !== 'null')
    .flatMap(variant => variantsOf(variant, resolve));
}

/** Every field of a body schema, each once, through unions, arrays and `$ref`s. */
export function bodyFields(body: JsonSchema, resolve: Resolve): BodyField[] {
  const fields = new Map<string, BodyField>();
  const walk = (
    schema: JsonSchema,
    path: (string | number)[],
    containers: JsonSchema[],
    refs: string[],
  ) => {
    const key = path.join('.');
    if (path.length > 0 && !fields.has(key)) {
      const name = [...path].reverse().find(p => typeof p === 'string');
      fields.set(key, { path, containers, schema, name: String(name) });
    }
    const ref: string | undefined = schema.$ref;
    if (path.length >= MAX_DEPTH || (ref && refs.includes(ref))) {
      return;
    }
    const seen = ref ? [...refs, ref] : refs;
    for (const variant of variantsOf(resolve(schema), resolve)) {
      for (const [name, child] of Object.entries<JsonSchema>(
        variant.properties ?? {},
      )) {
        walk(child, [...path, name], [...containers, variant], seen);
      }
      if (variant.type === 'array' && variant.items) {
        walk(variant.items, [...path, 0], [...containers, variant], seen);
      }
    }
  };
  walk(body, [], [], []);
  return [...fields.values()];
}

function holds(value: unknown, schema: JsonSchema): boolean {
  return schema.type === 'array'
    ? Array.isArray(value)
    : value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A copy of `body` with `value` at `field`: containers the body lacks on the way are made from
 * their schemas' simplest valid values, so only the field itself is wrong.
 */
export function withField(
  body: unknown,
  field: BodyField,
  value: unknown,
  resolve: Resolve,
): unknown {
  const root: any = holds(body, field.containers[0])
    ? structuredClone(body)
    : exampleOf(field.containers[0], resolve);
  let node = root;
  field.path.forEach((key, i) => {
    if (i === field.path.length - 1) {
      node[key] = value;
      return;
    }
    const schema = field.containers[i + 1];
    if (!holds(node[key], schema)) {
      node[key] = exampleOf(schema, resolve);
    }
    if (Array.isArray(node[key]) && node[key].length === 0) {
      node[key].push(exampleOf(schema.items ?? {}, resolve));
    }
    node = node[key];
  });
  return root;
}
