import {
  ModuleInput,
  ValueSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  carryModuleValues,
  droppedImmutableValues,
  resolveModuleValues,
} from './moduleValues';

const CIDR: ModuleInput = {
  id: 'cidr',
  label: 'CIDR',
  type: 'string',
  required: true,
  immutable: true,
  patterns: [
    {
      pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$',
      message: 'must be a CIDR block such as 10.0.0.0/16',
    },
    { pattern: '^10\\.', message: 'must be in 10.0.0.0/8' },
  ],
};
const TIER: ModuleInput = {
  id: 'tier',
  label: 'Tier',
  type: 'string',
  required: true,
  default: 'small',
  values: [{ value: 'small' }, { value: 'large' }],
};
const REGION: ModuleInput = {
  id: 'region',
  label: 'Region',
  type: 'string',
  required: true,
  default_from: 'aws-region',
  default: 'us-east-1',
  values: [
    { value: 'eu-west-1' },
    { value: 'us-east-1' },
    { value: 'ap-south-1' },
  ],
};
const NOTE: ModuleInput = {
  id: 'note',
  label: 'Note',
  type: 'string',
  patterns: [{ pattern: '^[a-z ]+$', message: 'lowercase words only' }],
};
const INPUTS = [CIDR, TIER, REGION, NOTE];

function definitions(
  entries: Record<string, Partial<ValueSchema>> = {},
): Map<string, ValueSchema> {
  return new Map(
    Object.entries(entries).map(([givenId, schema]) => [
      givenId,
      { id: givenId, label: givenId, type: 'string', ...schema },
    ]),
  );
}

describe('resolveModuleValues', () => {
  it('keeps given values and fills defaults: the definition’s first, then the input’s', () => {
    expect(
      resolveModuleValues({
        inputs: INPUTS,
        given: { cidr: '10.1.0.0/16' },
        definitions: definitions({ 'aws-region': { default: 'eu-west-1' } }),
      }),
    ).toEqual({
      values: { cidr: '10.1.0.0/16', tier: 'small', region: 'eu-west-1' },
      problems: [],
    });

    expect(
      resolveModuleValues({
        inputs: INPUTS,
        given: { cidr: '10.1.0.0/16', region: 'ap-south-1', note: 'hello' },
        definitions: definitions(),
      }),
    ).toEqual({
      values: {
        cidr: '10.1.0.0/16',
        tier: 'small',
        region: 'ap-south-1',
        note: 'hello',
      },
      problems: [],
    });
  });

  it('falls back to the input’s default when the definition has none or is missing', () => {
    for (const defs of [
      definitions(),
      definitions({ 'aws-region': { description: 'no default' } }),
    ]) {
      expect(
        resolveModuleValues({
          inputs: [REGION],
          given: {},
          definitions: defs,
        }).values,
      ).toEqual({ region: 'us-east-1' });
    }
  });

  it('lists every problem: required, patterns, allowed values, unknown inputs', () => {
    const { problems } = resolveModuleValues({
      inputs: INPUTS,
      given: {
        tier: 'medium',
        note: 'Not Lowercase',
        colour: 'blue',
        zone: 'a',
      },
      definitions: definitions({ 'aws-region': { default: 'eu-west-1' } }),
    });
    expect(problems).toEqual([
      'values.colour: is not an input of this module version',
      'values.zone: is not an input of this module version',
      'values.cidr: is required',
      'values.tier: "medium" is not one of the allowed values ("small", "large")',
      'values.note: lowercase words only',
    ]);

    expect(
      resolveModuleValues({
        inputs: [CIDR],
        given: { cidr: '192.168.0.0' },
        definitions: definitions(),
      }).problems,
    ).toEqual([
      'values.cidr: must be a CIDR block such as 10.0.0.0/16',
      'values.cidr: must be in 10.0.0.0/8',
    ]);
  });

  it('treats an empty value of a required input as missing, and lets optional ones be empty', () => {
    expect(
      resolveModuleValues({
        inputs: [CIDR, NOTE],
        given: { cidr: '', note: '' },
        definitions: definitions(),
      }),
    ).toEqual({ values: { note: '' }, problems: ['values.cidr: is required'] });
  });

  it('checks defaults like given values and says where they came from', () => {
    const { problems } = resolveModuleValues({
      inputs: [REGION],
      given: {},
      definitions: definitions({ 'aws-region': { default: 'mars-1' } }),
    });
    expect(problems).toEqual([
      'values.region (default from "aws-region"): "mars-1" is not one of the allowed values ("eu-west-1", "us-east-1", "ap-south-1")',
    ]);
  });

  it('names a default-value definition that does not exist when nothing fills a required input', () => {
    const input: ModuleInput = { ...REGION, default: undefined };
    expect(
      resolveModuleValues({
        inputs: [input],
        given: {},
        definitions: definitions(),
      }).problems,
    ).toEqual([
      'values.region: is required (its default-value definition "aws-region" does not exist)',
    ]);
  });

  it('keeps immutable values once set, and lets them be set the first time', () => {
    const previous = { cidr: '10.1.0.0/16', tier: 'small' };
    expect(
      resolveModuleValues({
        inputs: [CIDR, TIER],
        given: { cidr: '10.2.0.0/16', tier: 'large' },
        definitions: definitions(),
        previous,
      }).problems,
    ).toEqual(['values.cidr: is immutable and keeps "10.1.0.0/16"']);

    expect(
      resolveModuleValues({
        inputs: [CIDR, TIER],
        given: { cidr: '10.1.0.0/16', tier: 'large' },
        definitions: definitions(),
        previous,
      }),
    ).toEqual({
      values: { cidr: '10.1.0.0/16', tier: 'large' },
      problems: [],
    });

    const optionalImmutable: ModuleInput = {
      id: 'bucket',
      label: 'Bucket',
      type: 'string',
      immutable: true,
    };
    expect(
      resolveModuleValues({
        inputs: [optionalImmutable],
        given: { bucket: 'logs' },
        definitions: definitions(),
        previous: {},
      }).problems,
    ).toEqual([]);
    expect(
      resolveModuleValues({
        inputs: [optionalImmutable],
        given: {},
        definitions: definitions(),
        previous: { bucket: 'logs' },
      }).problems,
    ).toEqual(['values.bucket: is immutable and keeps "logs"']);
  });
});

describe('carryModuleValues', () => {
  it('keeps values of kept inputs, follows renames and drops the rest', () => {
    const inputs: ModuleInput[] = [
      {
        id: 'subnet_cidr',
        label: 'CIDR',
        type: 'string',
        moved_from: ['cidr'],
      },
      { id: 'tier', label: 'Tier', type: 'string' },
      { id: 'new', label: 'New', type: 'string' },
    ];
    expect(
      carryModuleValues(
        { cidr: '10.0.0.0/16', tier: 'large', removed: 'x' },
        inputs,
      ),
    ).toEqual({ subnet_cidr: '10.0.0.0/16', tier: 'large' });
  });
});

describe('droppedImmutableValues', () => {
  const from: ModuleInput[] = [
    { id: 'cidr_block', label: 'CIDR', type: 'string', immutable: true },
    { id: 'name', label: 'Name', type: 'string', immutable: true },
    { id: 'tier', label: 'Tier', type: 'string' },
  ];

  it('names the immutable values a version would forget, not those it keeps or renames', () => {
    const values = { cidr_block: '10.30.0.0/16', name: 'main', tier: 'small' };
    // 1.0.0 has none of them: moved there and back, cidr_block took any value.
    expect(
      droppedImmutableValues(
        values,
        from,
        [{ id: 'other', label: 'Other', type: 'string' }],
        '1.0.0',
      ),
    ).toEqual([
      'values.cidr_block: is immutable and keeps "10.30.0.0/16"; version 1.0.0 has no input cidr_block to keep it in',
      'values.name: is immutable and keeps "main"; version 1.0.0 has no input name to keep it in',
    ]);
    expect(
      droppedImmutableValues(
        values,
        from,
        [
          {
            id: 'cidr',
            label: 'CIDR',
            type: 'string',
            moved_from: ['cidr_block'],
          },
          { id: 'name', label: 'Name', type: 'string' },
        ],
        '2.0.0',
      ),
    ).toEqual([]);
    // Not set, nothing is forgotten.
    expect(
      droppedImmutableValues({ tier: 'small' }, from, [], '1.0.0'),
    ).toEqual([]);
  });
});
