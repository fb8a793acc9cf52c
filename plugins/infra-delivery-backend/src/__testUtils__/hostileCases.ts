import zlib from 'node:zlib';
import { bodyFields, withField } from './bodyFields';
import { hostileJsonValues } from './hostileValues';
import { hostileHeaderValues, hostileUrlTexts } from './hostileUrlTexts';
import { bodyBytes, jsonText, nestedJson } from './jsonBodyText';
import { OpenApiDocument, OpenApiOperation } from './openApiDocument';
import { exampleOf, Resolve, typeOf } from './schemaExamples';

/** A valid request of the operation (see operationCalls.ts), the one each case spoils. */
export interface GoodCall {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request as it goes on the wire, below the plugin's base URL. */
export interface HostileRequest {
  method: OpenApiOperation['method'];
  /** The path and query, %-encoded (or not well: that may be the point). */
  url: string;
  headers: Record<string, string>;
  /** Sent as it is. */
  body?: Buffer;
}

/** One request that is wrong in one place, built from each database's good call. */
export interface HostileCase {
  label: string;
  build(good: GoodCall): HostileRequest;
}

/** What a case changes in the good call. */
interface Change {
  path?: { name: string; text: string };
  /** Replaces the parameter's own `name=value` pairs (none for a parameter it adds). */
  query?: { name?: string; pairs: string[] };
  header?: { name: string; value: string };
  body?: { bytes: Buffer; contentType: string; contentEncoding?: string };
}

function goodBody(
  operation: OpenApiOperation,
  good: GoodCall,
  resolve: Resolve,
): unknown {
  return good.body ?? exampleOf(operation.body ?? {}, resolve);
}

function goodBodyText(
  operation: OpenApiOperation,
  good: GoodCall,
  resolve: Resolve,
): string {
  const body = goodBody(operation, good, resolve);
  return typeof body === 'string' ? body : jsonText(body);
}

function requestOf(
  operation: OpenApiOperation,
  good: GoodCall,
  change: Change,
  resolve: Resolve,
): HostileRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    change.path?.name === name
      ? change.path.text
      : encodeURIComponent(good.params?.[name] ?? 'missing'),
  );
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(good.query ?? {})) {
    if (change.query?.name !== name) {
      for (const item of [value].flat()) {
        pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(item)}`);
      }
    }
  }
  pairs.push(...(change.query?.pairs ?? []));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(good.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  if (change.header) {
    headers[change.header.name.toLowerCase()] = change.header.value;
  }
  let body: Buffer | undefined;
  if (change.body) {
    body = change.body.bytes;
    headers['content-type'] = change.body.contentType;
    if (change.body.contentEncoding) {
      headers['content-encoding'] = change.body.contentEncoding;
    }
  } else if (operation.body) {
    body = bodyBytes(goodBodyText(operation, good, resolve));
    headers['content-type'] ??= 'application/json';
  }
  return {
    method: operation.method,
    url: `${path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`,
    headers,
    body,
  };
}

const JSON_TYPE = 'application/json';

/** Whole bodies that are wrong as a whole: their type, their encoding, their JSON. */
function bodyCases(
  operation: OpenApiOperation,
  resolve: Resolve,
): { label: string; body: (good: GoodCall) => Change['body'] }[] {
  const text = (good: GoodCall) => goodBodyText(operation, good, resolve);
  const json = (value: string) => ({
    bytes: bodyBytes(value),
    contentType: JSON_TYPE,
  });
  /** The good body with `member` first, where the body is an object with members. */
  const withMember = (good: GoodCall, member: string) => {
    const goodText = text(good);
    return /^\{\s*"/.test(goodText)
      ? `{${member},${goodText.slice(1)}`
      : `{${member}}`;
  };
  return [
    {
      label: 'as text/plain',
      body: good => ({
        bytes: bodyBytes(text(good)),
        contentType: 'text/plain',
      }),
    },
    {
      label: 'as a form',
      body: () => ({
        bytes: Buffer.from('data=1'),
        contentType: 'application/x-www-form-urlencoded',
      }),
    },
    {
      label: 'as XML',
      body: () => ({
        bytes: Buffer.from('<data/>'),
        contentType: 'application/xml',
      }),
    },
    {
      label: 'JSON said to be UTF-16',
      body: good => ({
        bytes: bodyBytes(text(good)),
        contentType: `${JSON_TYPE}; charset=utf-16`,
      }),
    },
    {
      label: 'gzip-compressed',
      body: good => ({
        bytes: zlib.gzipSync(bodyBytes(text(good))),
        contentType: JSON_TYPE,
        contentEncoding: 'gzip',
      }),
    },
    {
      label: 'truncated JSON',
      body: good => json(text(good).slice(0, Math.ceil(text(good).length / 2))),
    },
    { label: 'empty', body: () => json('') },
    { label: 'null', body: () => json('null') },
    { label: 'an array', body: () => json('[]') },
    { label: 'a string', body: () => json('"data"') },
    { label: 'a number beyond double', body: () => json('1e400') },
    {
      label: 'a byte-order mark first',
      body: good => json(`\uFEFF${text(good)}`),
    },
    {
      label: 'a duplicated key',
      body: good => json(withMember(good, '"data":null')),
    },
    {
      label: 'an unknown member',
      body: good => json(withMember(good, '"unexpected":1')),
    },
    { label: 'data an array', body: () => json('{"data":[]}') },
    {
      label: 'data nested 100 deep',
      body: () => json(`{"data":${nestedJson(100)}}`),
    },
    {
      label: 'over 1 MiB',
      body: () => json(`{"data":"${'x'.repeat(1_100_000)}"}`),
    },
  ];
}

/** Query parameters the operation does not take, on every operation. */
const UNKNOWN_QUERY_PAIRS: [string, string[]][] = [
  ['an unknown parameter', ['unexpected=1']],
  ['an unknown parameter with brackets', ['unexpected[a][b]=1']],
  ['a __proto__ parameter', ['__proto__[polluted]=1']],
];

/**
 * Requests of `operation` that are wrong in one place each, derived from its OpenAPI schemas:
 * every path, query and header parameter and every body field with values hostile to its
 * schema, bodies wrong as a whole, and query parameters the operation does not take.
 */
export function hostileCases(
  operation: OpenApiOperation,
  document: OpenApiDocument,
): HostileCase[] {
  const resolve: Resolve = schema => document.resolve(schema);
  const cases: HostileCase[] = [];
  const add = (label: string, change: (good: GoodCall) => Change) =>
    cases.push({
      label,
      build: good => requestOf(operation, good, change(good), resolve),
    });

  for (const parameter of operation.parameters) {
    const { name, schema } = parameter;
    if (parameter.in === 'header') {
      for (const { label, value } of hostileHeaderValues(resolve(schema))) {
        add(`header ${name}: ${label}`, () => ({ header: { name, value } }));
      }
      continue;
    }
    for (const { label, value } of hostileUrlTexts(schema, name, resolve)) {
      add(`${parameter.in} ${name}: ${label}`, () =>
        parameter.in === 'path'
          ? { path: { name, text: value } }
          : {
              query: { name, pairs: [`${encodeURIComponent(name)}=${value}`] },
            },
      );
    }
    if (parameter.in === 'query') {
      const resolved = resolve(schema);
      const example = exampleOf(
        typeOf(resolved, resolve) === 'array' ? resolved.items ?? {} : resolved,
        resolve,
      );
      const given = (good: GoodCall) =>
        encodeURIComponent(String([good.query?.[name] ?? example].flat()[0]));
      add(`query ${name}: given twice`, good => ({
        query: {
          name,
          pairs: [`${name}=${given(good)}`, `${name}=${given(good)}`],
        },
      }));
      add(`query ${name}: with brackets`, good => ({
        query: { name, pairs: [`${name}[a]=${given(good)}`] },
      }));
      add(`query ${name}: without a value`, () => ({
        query: { name, pairs: [name] },
      }));
    }
  }
  for (const [label, pairs] of UNKNOWN_QUERY_PAIRS) {
    add(`query: ${label}`, () => ({ query: { pairs } }));
  }

  const body = operation.body;
  if (body) {
    for (const { label, body: bodyOf } of bodyCases(operation, resolve)) {
      add(`body: ${label}`, good => ({ body: bodyOf(good) }));
    }
    for (const field of bodyFields(body, resolve)) {
      for (const { label, value } of hostileJsonValues(
        field.schema,
        field.name,
        resolve,
      )) {
        add(`body ${field.path.join('.')}: ${label}`, good => ({
          body: {
            bytes: bodyBytes(
              jsonText(
                withField(
                  goodBody(operation, good, resolve),
                  field,
                  value,
                  resolve,
                ),
              ),
            ),
            contentType: JSON_TYPE,
          },
        }));
      }
    }
  }
  return cases;
}
