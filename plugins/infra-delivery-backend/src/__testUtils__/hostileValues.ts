import { JsonSchema } from './openApiDocument';
import { INVALID_UTF8, nestedJson, RawJson } from './jsonBodyText';
import {
  exampleOf,
  mainVariant,
  Resolve,
  textOfLength,
  typeOf,
} from './schemaExamples';

/** A value with what it is, for the report of a request that went wrong. */
export interface Hostile<T> {
  label: string;
  value: T;
}

const HUNDRED_KB = 'x'.repeat(100 * 1024);
export const MALFORMED_UUID = '0193a8c0-zzzz-7000-8000-00000000000';
export const UNKNOWN_UUID = '0193a8c0-0000-7000-8000-000000000000';

/** Timestamps of the right shape that are not dates, or at the edges of what databases keep. */
export const ODD_DATE_TIMES: [string, string][] = [
  ['30 February', '2026-02-30T00:00:00Z'],
  ['year 0', '0000-01-01T00:00:00Z'],
  ['year 9999', '9999-12-31T23:59:59.999Z'],
  ['a six-digit year', '+275760-09-13T00:00:00Z'],
  ['offset +25:00', '2026-01-01T00:00:00+25:00'],
];

/** Numbers past what integer columns, doubles and safe integers hold. */
export const BEYOND_NUMBERS: [string, string][] = [
  ['2^31', '2147483648'],
  ['below -2^31', '-2147483649'],
  ['2^53 + 1', '9007199254740993'],
  ['beyond int64', '9223372036854775808'],
  ['beyond double', '1e400'],
  ['below double', '-1e400'],
  ['underflowing', '1e-400'],
];

export function idLike(name: string) {
  return /id$/i.test(name);
}

function stringValues(
  schema: JsonSchema,
  name: string,
  example: string,
): Hostile<unknown>[] {
  const values: Hostile<unknown>[] = [
    { label: 'empty', value: '' },
    { label: '100 KB', value: HUNDRED_KB },
    { label: 'NUL', value: `${example}\u0000` },
    { label: 'invalid UTF-8', value: `${example}${INVALID_UTF8}` },
    { label: 'lone surrogate', value: `${example}\uD800` },
    { label: 'SQL and LIKE characters', value: `${example}'%_\\--` },
    { label: 'a number', value: 12345 },
    { label: 'an array', value: [example] },
    { label: 'an object', value: { $ne: '' } },
  ];
  const max = schema.maxLength;
  if (typeof max === 'number' && max < HUNDRED_KB.length) {
    const longest = textOfLength(schema, max);
    if (longest !== undefined) {
      values.push({ label: `longest allowed (${max})`, value: longest });
    }
    values.push({
      label: 'one over maxLength',
      value: textOfLength(schema, max + 1) ?? 'x'.repeat(max + 1),
    });
  }
  if (schema.enum) {
    values.push({ label: 'not in the enum', value: 'NOT_A_VALUE' });
  }
  if (idLike(name)) {
    values.push(
      { label: 'malformed UUID', value: MALFORMED_UUID },
      { label: 'unknown UUID', value: UNKNOWN_UUID },
    );
  }
  if (schema.format === 'date-time') {
    values.push(...ODD_DATE_TIMES.map(([label, value]) => ({ label, value })));
  }
  return values;
}

function numberValues(schema: JsonSchema, example: unknown) {
  const values: Hostile<unknown>[] = [
    { label: '-1', value: -1 },
    { label: '0', value: 0 },
    { label: 'fractional', value: 1.5 },
    { label: 'negative zero', value: new RawJson('-0') },
    ...BEYOND_NUMBERS.map(([label, text]) => ({
      label,
      value: new RawJson(text),
    })),
    { label: 'a numeric string', value: String(example) },
    { label: 'an array', value: [example] },
  ];
  if (
    typeof schema.maximum === 'number' &&
    schema.maximum < Number.MAX_SAFE_INTEGER
  ) {
    values.push(
      { label: `maximum (${schema.maximum})`, value: schema.maximum },
      { label: 'one over maximum', value: schema.maximum + 1 },
    );
  }
  return values;
}

function arrayValues(schema: JsonSchema, resolve: Resolve) {
  const item = exampleOf(schema.items ?? {}, resolve);
  const values: Hostile<unknown>[] = [
    { label: 'a scalar', value: item },
    { label: 'empty', value: [] },
    { label: '[null]', value: [null] },
    { label: 'nested', value: [[item]] },
    { label: 'duplicates', value: [item, item] },
  ];
  if (typeof schema.maxItems === 'number' && schema.maxItems <= 10_000) {
    values.push({
      label: `maxItems + 1 (${schema.maxItems + 1})`,
      value: Array(schema.maxItems + 1).fill(item),
    });
  }
  return values;
}

function objectValues(example: unknown): Hostile<unknown>[] {
  return [
    { label: 'an array', value: [] },
    { label: 'a string', value: 'x' },
    {
      label: 'an unknown field',
      value: { ...(example as object), unexpectedField: 'x' },
    },
    {
      label: 'a __proto__ key',
      value: new RawJson('{"__proto__":{"polluted":true}}'),
    },
    { label: 'nested 100 deep', value: new RawJson(nestedJson(100)) },
  ];
}

/** For free-form JSON (a run's input, a step's config): what text columns and parsers meet. */
const FREE_FORM_VALUES: Hostile<unknown>[] = [
  { label: 'NUL in a key and a value', value: { 'k\u0000': 'v\u0000' } },
  { label: 'lone surrogate', value: { k: '\uD800' } },
  { label: 'largest double', value: new RawJson('1.7976931348623157e308') },
  { label: 'beyond double', value: new RawJson('1e400') },
  { label: 'nested 60 deep', value: new RawJson(nestedJson(60)) },
  { label: 'nested 100 deep', value: new RawJson(nestedJson(100)) },
  { label: '100 KB string', value: HUNDRED_KB },
  { label: 'a string', value: 'x' },
  { label: 'an array', value: [1] },
];

/** Hostile values for a JSON body field named `name` of `schema`. */
export function hostileJsonValues(
  schema: JsonSchema,
  name: string,
  resolve: Resolve,
): Hostile<unknown>[] {
  const main = mainVariant(resolve(schema), resolve);
  const example = exampleOf(main, resolve);
  const values: Hostile<unknown>[] = [{ label: 'null', value: null }];
  switch (typeOf(main, resolve)) {
    case 'string':
      values.push(...stringValues(main, name, String(example)));
      break;
    case 'integer':
    case 'number':
      values.push(...numberValues(main, example));
      break;
    case 'boolean':
      values.push(
        { label: 'a string', value: 'true' },
        { label: 'a number', value: 1 },
      );
      break;
    case 'array':
      values.push(...arrayValues(main, resolve));
      break;
    case 'object':
      values.push(...objectValues(example));
      break;
    default:
      values.push(...FREE_FORM_VALUES);
  }
  return values;
}
