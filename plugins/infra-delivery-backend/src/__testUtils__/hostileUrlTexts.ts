import { JsonSchema } from './openApiDocument';
import {
  BEYOND_NUMBERS,
  Hostile,
  idLike,
  MALFORMED_UUID,
  ODD_DATE_TIMES,
  UNKNOWN_UUID,
} from './hostileValues';
import { mainVariant, Resolve, textOfLength, typeOf } from './schemaExamples';

/** Text as it stands in a URL: %-encoded already, or deliberately not well encoded. */
const URL_TEXTS: [string, string][] = [
  ['empty', ''],
  ['8 KB', 'x'.repeat(8 * 1024)],
  ['NUL', 'a%00b'],
  ['malformed %-escape', '%E0%A4%A'],
  ['invalid UTF-8', '%FF%FE'],
  ['encoded surrogate', '%ED%A0%80'],
  ['a lone %', '%'],
  ['SQL and LIKE characters', '%27%25_%5C--'],
];

/** Hostile texts (%-encoded) for a path, query or header parameter named `name`. */
export function hostileUrlTexts(
  schema: JsonSchema,
  name: string,
  resolve: Resolve,
): Hostile<string>[] {
  const main = mainVariant(resolve(schema), resolve);
  const scalar =
    typeOf(main, resolve) === 'array'
      ? mainVariant(resolve(main.items ?? {}), resolve)
      : main;
  const texts: [string, string][] = [...URL_TEXTS];
  switch (typeOf(scalar, resolve)) {
    case 'integer':
    case 'number':
      texts.push(
        ['-1', '-1'],
        ['0', '0'],
        ['fractional', '1.5'],
        ['exponent', '1e3'],
        ['hexadecimal', '0x10'],
        ['NaN', 'NaN'],
        ['Infinity', 'Infinity'],
        ['padded', '%201%20'],
        ...BEYOND_NUMBERS,
      );
      if (typeof scalar.maximum === 'number') {
        texts.push(['one over maximum', String(scalar.maximum + 1)]);
      }
      break;
    case 'boolean':
      texts.push(['yes', 'yes'], ['TRUE', 'TRUE']);
      break;
    default:
      break;
  }
  if (scalar.enum) {
    texts.push(['not in the enum', 'NOT_A_VALUE']);
  }
  if (idLike(name)) {
    texts.push(
      ['malformed UUID', MALFORMED_UUID],
      ['unknown UUID', UNKNOWN_UUID],
    );
  }
  if (name === 'cursor') {
    texts.push(
      ['not a cursor', 'not-a-cursor'],
      ['a cursor of empty JSON', 'e30.e30'],
      ['a lone dot', '.'],
    );
  }
  if (scalar.format === 'date-time') {
    texts.push(
      ...ODD_DATE_TIMES.map(([label, value]): [string, string] => [
        label,
        encodeURIComponent(value),
      ]),
    );
  }
  const max = scalar.maxLength;
  if (typeof max === 'number' && max < 8 * 1024) {
    const longest = textOfLength(scalar, max);
    if (longest !== undefined) {
      texts.push([`longest allowed (${max})`, encodeURIComponent(longest)]);
    }
    texts.push(['one over maxLength', 'x'.repeat(max + 1)]);
  }
  return texts.map(([label, value]) => ({ label, value }));
}

/** Header values a client may send (Node refuses to send control characters). */
export function hostileHeaderValues(schema: JsonSchema): Hostile<string>[] {
  const values: Hostile<string>[] = [
    { label: 'empty', value: '' },
    { label: 'blank', value: '   ' },
    { label: '8 KB', value: 'x'.repeat(8 * 1024) },
    { label: 'Latin-1', value: 'clé' },
    { label: 'a list', value: 'a, b' },
  ];
  if (typeof schema.maxLength === 'number') {
    values.push(
      {
        label: `longest allowed (${schema.maxLength})`,
        value: 'x'.repeat(schema.maxLength),
      },
      { label: 'one over maxLength', value: 'x'.repeat(schema.maxLength + 1) },
    );
  }
  return values;
}
