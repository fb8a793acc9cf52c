import {
  DefaultValueDefinition,
  ValueSchema,
  valueProblems,
} from '@infra-delivery/plugin-infra-delivery-common';
import { refusedFieldsOf } from './refusedFields';

/** What the default value form asks for, as typed. */
export interface DefaultValueFields {
  name: string;
  givenId: string;
  description: string;
  /** The value itself: the schema's `default`. */
  value: string;
  /** The schema's allowed `values`, one per line; empty allows any value. */
  allowedValues: string;
}

export type DefaultValueField = keyof DefaultValueFields;

export const EMPTY_FIELDS: DefaultValueFields = {
  name: '',
  givenId: '',
  description: '',
  value: '',
  allowedValues: '',
};

/** The allowed values as typed: one per line, trimmed, without blank lines or repeats. */
function allowedValuesOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split('\n')
        .map(line => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** A definition's fields as the form shows them. */
export function fieldsOf(
  definition: DefaultValueDefinition,
): DefaultValueFields {
  return {
    name: definition.name,
    givenId: definition.givenId,
    description: definition.description ?? '',
    value: definition.schema.default ?? '',
    allowedValues: (definition.schema.values ?? [])
      .map(option => option.value)
      .join('\n'),
  };
}

/**
 * The schema the form describes. A new one is named after the definition (its id, its name as
 * label) and holds text; a changed one keeps everything the form does not show (patterns, the
 * allowed values' labels and conditions), so that saving a value loses nothing set through the
 * API. Its label follows the name where it was the name.
 */
export function schemaOf(
  fields: DefaultValueFields,
  before?: DefaultValueDefinition,
): ValueSchema {
  const name = fields.name.trim();
  const value = fields.value.trim();
  const options = allowedValuesOf(fields.allowedValues).map(
    allowed =>
      before?.schema.values?.find(option => option.value === allowed) ?? {
        value: allowed,
      },
  );
  const {
    default: _previous,
    values: _options,
    ...kept
  } = before?.schema ?? {
    id: fields.givenId,
    label: name,
    type: 'string',
  };
  return {
    ...kept,
    ...(before && before.schema.label === before.name && { label: name }),
    ...(value && { default: value }),
    ...(options.length > 0 && { values: options }),
  };
}

/**
 * What is wrong with the value as the service would find it: not one of the allowed values, or
 * failing the patterns the definition has. Nothing while it is empty.
 */
export function valueProblemOf(
  fields: DefaultValueFields,
  before?: DefaultValueDefinition,
): string | undefined {
  const schema = schemaOf(fields, before);
  return schema.default === undefined
    ? undefined
    : valueProblems(schema, schema.default)[0];
}

/** The form field a request body's path is about. */
const FIELD_OF_PATH: [RegExp, DefaultValueField][] = [
  [/^name$/, 'name'],
  [/^givenId$/, 'givenId'],
  [/^description$/, 'description'],
  [/^schema\.default$/, 'value'],
  [/^schema\.values(\.\d+(\.value)?)?$/, 'allowedValues'],
  [/^schema\.label$/, 'name'],
  [/^schema\.id$/, 'givenId'],
];

/**
 * What the service refused, by the form field it is about: its validation issues
 * (`body.data.schema.default: "x" is not one of the allowed values`) and a taken id (409
 * `GIVEN_ID_TAKEN`). Undefined when any of it names no field of the form, so that nothing is
 * lost when it is said beside the fields instead of in a panel.
 */
export function refusedDefaultValueFieldsOf(
  error: Error | undefined,
): Partial<Record<DefaultValueField, string>> | undefined {
  return refusedFieldsOf(
    error,
    Object.keys(EMPTY_FIELDS),
    { GIVEN_ID_TAKEN: 'givenId' },
    path => FIELD_OF_PATH.find(([pattern]) => pattern.test(path))?.[1],
  );
}
