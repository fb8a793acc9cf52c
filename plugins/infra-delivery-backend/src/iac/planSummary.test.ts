import fs from 'node:fs';
import path from 'node:path';
import { parsePlanJson } from './planJson';
import { planLine, planSummaryFromPlanJson } from './planSummary';

const fixtures = path.resolve(__dirname, '__fixtures__/tf-plans');

function loadPlan(file: string) {
  return parsePlanJson(
    JSON.parse(fs.readFileSync(path.join(fixtures, file), 'utf8')),
  );
}

/** The expected counts are those listed in the fixtures' README. */
const expectations: [string, string, number, number, number][] = [
  // file, Plan line, read, no-op, replace
  [
    'terraform-compliance__test_issue-294.plan.json',
    'Plan: 18 to add, 0 to change, 0 to destroy.',
    2,
    0,
    0,
  ],
  [
    'terraform-compliance__test_issue-567.plan.json',
    'Plan: 0 to add, 6 to change, 0 to destroy.',
    0,
    4,
    0,
  ],
  [
    'terraform-compliance__test_issue_522.plan.json',
    'Plan: 5 to add, 1 to change, 2 to destroy.',
    0,
    7,
    0,
  ],
  [
    'terraform-json__action_reason.plan.json',
    'Plan: 1 to add, 0 to change, 1 to destroy.',
    0,
    0,
    1,
  ],
  [
    'terraform-json__basic.plan.json',
    'Plan: 7 to add, 0 to change, 0 to destroy.',
    1,
    0,
    0,
  ],
  [
    'terraform-json__config_resource_depends_on.plan.json',
    'Plan: 1 to add, 0 to change, 1 to destroy.',
    0,
    1,
    1,
  ],
  [
    'terraform-json__identity.plan.json',
    'Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.',
    0,
    0,
    0,
  ],
  [
    'terraform-json__moved_block.plan.json',
    'Plan: 0 to add, 0 to change, 0 to destroy.',
    0,
    1,
    0,
  ],
];

describe('planSummaryFromPlanJson', () => {
  it.each(expectations)(
    '%s counts as Terraform does',
    (file, line, read, unchanged, replace) => {
      const counts = planSummaryFromPlanJson(loadPlan(file));
      expect(planLine(counts)).toBe(line);
      expect(counts.readCount).toBe(read);
      expect(counts.unchangedCount).toBe(unchanged);
      expect(counts.replaceCount).toBe(replace);
    },
  );

  function planOf(
    ...changes: {
      actions: string[];
      mode?: 'managed' | 'data';
      importing?: {};
    }[]
  ) {
    return parsePlanJson({
      format_version: '1.2',
      resource_changes: changes.map((c, i) => ({
        address: `null_resource.r${i}`,
        mode: c.mode ?? 'managed',
        type: 'null_resource',
        name: `r${i}`,
        change: {
          actions: c.actions,
          before: null,
          after: {},
          ...(c.importing ? { importing: c.importing } : {}),
        },
      })),
    });
  }

  it('counts create_before_destroy (["create","delete"]) as one add and one destroy', () => {
    expect(
      planLine(
        planSummaryFromPlanJson(planOf({ actions: ['create', 'delete'] })),
      ),
    ).toBe('Plan: 1 to add, 0 to change, 1 to destroy.');
  });

  it('counts a config-driven import that changes nothing as import only', () => {
    const counts = planSummaryFromPlanJson(
      planOf({ actions: ['no-op'], importing: { id: 'i-0abc' } }),
    );
    expect(planLine(counts)).toBe(
      'Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.',
    );
  });

  it('does not count deleting a data source as a destroy', () => {
    expect(
      planSummaryFromPlanJson(planOf({ actions: ['delete'], mode: 'data' }))
        .destroyCount,
    ).toBe(0);
  });
});
