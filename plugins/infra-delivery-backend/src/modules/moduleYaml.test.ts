import { moduleYamlPath, parseModuleYaml } from './moduleYaml';

describe('moduleYamlPath', () => {
  it.each([
    ['', 'module.yaml'],
    ['/', 'module.yaml'],
    ['modules/vpc', 'modules/vpc/module.yaml'],
    ['/modules/vpc/', 'modules/vpc/module.yaml'],
  ])('places module.yaml in %p', (directory, path) => {
    expect(moduleYamlPath(directory)).toBe(path);
  });
});

describe('parseModuleYaml', () => {
  it('reads the inputs and leaves other top-level keys alone', () => {
    const result = parseModuleYaml(`
name: network
outputs: [vpc_id]
inputs:
  - id: cidr
    label: CIDR block
    type: string
    required: true
    immutable: true
    patterns:
      - pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$'
        message: a CIDR block such as 10.0.0.0/16
  - id: region
    label: Region
    type: string
    default_from: aws-region
    moved_from: [location]
  - id: tier
    label: Tier
    type: string
    default: small
    values:
      - value: small
        label: Small
      - value: large
`);
    expect(result).toEqual({
      ok: true,
      inputs: [
        {
          id: 'cidr',
          label: 'CIDR block',
          type: 'string',
          required: true,
          immutable: true,
          patterns: [
            {
              pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$',
              message: 'a CIDR block such as 10.0.0.0/16',
            },
          ],
        },
        {
          id: 'region',
          label: 'Region',
          type: 'string',
          default_from: 'aws-region',
          moved_from: ['location'],
        },
        {
          id: 'tier',
          label: 'Tier',
          type: 'string',
          default: 'small',
          values: [{ value: 'small', label: 'Small' }, { value: 'large' }],
        },
      ],
    });
  });

  it('takes a file without inputs as a module without inputs', () => {
    expect(parseModuleYaml('name: empty\n')).toEqual({ ok: true, inputs: [] });
    expect(parseModuleYaml('inputs: []\n')).toEqual({ ok: true, inputs: [] });
  });

  it('reports YAML syntax errors with their position', () => {
    expect(
      parseModuleYaml('inputs:\n  - id: a\n   label: [unclosed\n'),
    ).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        expect.stringMatching(/^not valid YAML: .* at line 3, column \d+$/),
      ]),
    });
  });

  it('refuses duplicate keys, an empty file and a document that is not a mapping', () => {
    expect(parseModuleYaml('inputs: []\ninputs: []\n')).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^not valid YAML: Map keys must be unique/),
      ],
    });
    expect(parseModuleYaml('')).toEqual({
      ok: false,
      problems: ['the file is empty; expected `inputs:`'],
    });
    expect(parseModuleYaml('# only a comment\n')).toEqual({
      ok: false,
      problems: ['the file is empty; expected `inputs:`'],
    });
    const list = parseModuleYaml('- id: a\n');
    expect(list.ok).toBe(false);
  });

  it('lists every problem of every input', () => {
    const result = parseModuleYaml(`
inputs:
  - id: size
    type: string
  - id: size
    label: Size again
    type: string
    requried: true
  - id: tier
    label: Tier
    type: string
    default: medium
    values: [{ value: small }, { value: large }]
  - id: name
    label: Name
    type: string
    default: UPPER
    patterns:
      - pattern: '^[a-z]+$'
        message: lowercase letters only
  - id: broken
    label: Broken
    type: string
    patterns:
      - pattern: '(['
        message: never compiles
    default_from: Not_A_Given_Id
  - 42
`);
    expect(result).toEqual({
      ok: false,
      problems: [
        'inputs[0].label: Invalid input: expected string, received undefined',
        'inputs[1]: Unrecognized key: "requried"',
        'inputs[4].patterns[0].pattern: is not a valid regular expression',
        expect.stringMatching(/^inputs\[4\]\.default_from: /),
        'inputs[5]: Invalid input: expected object, received number',
      ],
    });
  });

  it('checks declared-twice ids and defaults once the shape is right', () => {
    const result = parseModuleYaml(`
inputs:
  - { id: size, label: Size, type: string }
  - { id: size, label: Size again, type: string }
  - id: tier
    label: Tier
    type: string
    default: medium
    values: [{ value: small }, { value: large }]
  - id: name
    label: Name
    type: string
    default: UPPER
    patterns:
      - { pattern: '^[a-z]+$', message: lowercase letters only }
`);
    expect(result).toEqual({
      ok: false,
      problems: [
        'inputs[1].id: "size" is declared twice',
        'inputs[2].default: "medium" is not one of the allowed values ("small", "large")',
        'inputs[3].default: lowercase letters only',
      ],
    });
  });

  it('refuses alias bombs instead of expanding them', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'inputs: []',
    ].join('\n');
    expect(parseModuleYaml(bomb)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^not valid YAML: .*alias/i)],
    });
  });
});
