import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlanJson, PlanJson } from './planJson';
import { planHasChanges } from './planHasChanges';

const fixture = (file: string): PlanJson =>
  parsePlanJson(
    JSON.parse(
      readFileSync(join(__dirname, '__fixtures__/tf-plans', file), 'utf8'),
    ),
  );

const resource = (actions: string[], extra: Record<string, unknown> = {}) => ({
  address: 'terraform_data.a',
  type: 'terraform_data',
  name: 'a',
  ...extra,
  change: { actions },
});

describe('planHasChanges', () => {
  it('is true for real plans that add, change, destroy or import', () => {
    for (const file of [
      'terraform-compliance__test_issue_522.plan.json',
      'terraform-compliance__test_issue-567.plan.json',
      'terraform-json__action_reason.plan.json',
      'terraform-json__identity.plan.json',
    ]) {
      expect([file, planHasChanges(fixture(file))]).toEqual([file, true]);
    }
  });

  it('is true for a plan that only moves a resource: the apply records the move', () => {
    // Plan: 0 to add, 0 to change, 0 to destroy, yet the state changes.
    expect(
      planHasChanges(fixture('terraform-json__moved_block.plan.json')),
    ).toBe(true);
  });

  it('is false for a plan whose resources and outputs all stay as they are', () => {
    expect(
      planHasChanges(
        parsePlanJson({
          resource_changes: [resource(['no-op'])],
          output_changes: {
            region: { actions: ['no-op'], after: 'eu-west-1' },
          },
        }),
      ),
    ).toBe(false);
    expect(planHasChanges(parsePlanJson({}))).toBe(false);
  });

  it('is true when only an output changes', () => {
    expect(
      planHasChanges(
        parsePlanJson({
          resource_changes: [resource(['no-op'])],
          output_changes: { region: { actions: ['update'], after: 'x' } },
        }),
      ),
    ).toBe(true);
  });

  it("follows Terraform's own applyable where the plan has it, and is false when it errored", () => {
    expect(
      planHasChanges(
        parsePlanJson({
          applyable: false,
          resource_changes: [resource(['read'])],
        }),
      ),
    ).toBe(false);
    expect(
      planHasChanges(parsePlanJson({ applyable: true, resource_changes: [] })),
    ).toBe(true);
    expect(
      planHasChanges(
        parsePlanJson({
          errored: true,
          resource_changes: [resource(['create'])],
        }),
      ),
    ).toBe(false);
  });
});
