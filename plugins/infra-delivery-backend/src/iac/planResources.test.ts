import fs from 'node:fs';
import path from 'node:path';
import { parsePlanJson, SENSITIVE_PLACEHOLDER } from './planJson';
import { plannedResourcesOf, reportedOutputsOf } from './planResources';

const fixture = (file: string) =>
  parsePlanJson(
    JSON.parse(
      fs.readFileSync(
        path.resolve(__dirname, '__fixtures__/tf-plans', file),
        'utf8',
      ),
    ),
  );

describe('plannedResourcesOf', () => {
  it('keeps module addresses, index keys and providers', () => {
    const resources = plannedResourcesOf(
      fixture('terraform-json__basic.plan.json'),
    );
    expect(
      resources.find(r => r.address === 'null_resource.baz[1]'),
    ).toMatchObject({
      resourceType: 'null_resource',
      resourceName: 'baz',
      indexKey: '1',
      changeKind: 'CREATE',
      provider: 'null',
    });
    expect(
      resources.find(r => r.address === 'module.foo.null_resource.aliased'),
    ).toMatchObject({ moduleAddress: 'module.foo', provider: 'null.aliased' });
    expect(
      resources.find(r => r.address === 'data.null_data_source.baz'),
    ).toMatchObject({ mode: 'data', changeKind: 'READ' });
  });

  it('marks a tainted replacement', () => {
    const [resource] = plannedResourcesOf(
      fixture('terraform-json__action_reason.plan.json'),
    );
    expect(resource).toMatchObject({ changeKind: 'REPLACE', tainted: true });
  });

  it('records the previous address of a moved resource', () => {
    const [resource] = plannedResourcesOf(
      fixture('terraform-json__moved_block.plan.json'),
    );
    expect(resource).toMatchObject({
      address: 'random_id.test2',
      previousAddress: 'random_id.test',
      changeKind: 'NO_OP',
    });
  });

  it('redacts values the plan marks sensitive', () => {
    const [resource] = plannedResourcesOf(
      parsePlanJson({
        resource_changes: [
          {
            address: 'aws_db_instance.main',
            mode: 'managed',
            type: 'aws_db_instance',
            name: 'main',
            change: {
              actions: ['update'],
              before: { password: 'old-secret', tags: { a: 'b' } },
              after: { password: 'new-secret', tags: { a: 'c' } },
              before_sensitive: { password: true },
              after_sensitive: { password: true, tags: {} },
            },
          },
        ],
      }),
    );
    expect(resource.vendorData).toEqual({
      before: { password: SENSITIVE_PLACEHOLDER, tags: { a: 'b' } },
      after: { password: SENSITIVE_PLACEHOLDER, tags: { a: 'c' } },
    });
    expect(JSON.stringify(resource)).not.toContain('secret');
  });
});

describe('reportedOutputsOf', () => {
  it('redacts what a report or its plan marks sensitive, in either shape a runner sends', () => {
    const plan = parsePlanJson({
      format_version: '1.2',
      resource_changes: [],
      output_changes: {
        token: { actions: ['create'], after: 'x', after_sensitive: true },
        endpoint: { actions: ['create'], after: 'x', after_sensitive: false },
      },
    });
    expect(
      reportedOutputsOf(
        {
          // The reference runner: values, already redacted.
          vpc_id: 'vpc-123',
          // `terraform output -json` as another client sends it.
          db_password: {
            value: 'SuperSecret123!',
            type: 'string',
            sensitive: true,
          },
          region: { value: 'eu-west-1', type: 'string', sensitive: false },
          // A value that only looks like such an entry stays a value.
          tags: { value: 'a', sensitive: true, owner: 'team' },
          // Sensitive by the applied plan, whatever the report says.
          token: 'tok-abc',
          endpoint: 'https://db',
        },
        plan,
      ),
    ).toEqual({
      vpc_id: 'vpc-123',
      db_password: SENSITIVE_PLACEHOLDER,
      region: 'eu-west-1',
      tags: { value: 'a', sensitive: true, owner: 'team' },
      token: SENSITIVE_PLACEHOLDER,
      endpoint: 'https://db',
    });
  });
});
