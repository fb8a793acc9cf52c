import { expect, Page, test } from '@playwright/test';

const SCREENSHOTS = 'docs/screenshots';

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

test('the demo component shows its stacks with state and outputs', async ({
  page,
}) => {
  await signIn(page, '/catalog/default/component/payments-api/infra-stacks');
  const monitoring = page.getByRole('row', { name: /Monitoring/ });
  await expect(monitoring).toBeVisible();
  await expect(monitoring.getByText('4', { exact: true })).toBeVisible();
  await expect(monitoring.getByText('region = eu-west-1')).toBeVisible();
  await expect(
    page.getByRole('row', { name: /Network/ }).getByText('Failed'),
  ).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/stacks-tab.png`,
    fullPage: true,
  });

  await monitoring.getByRole('button', { name: /^Details of / }).click();
  await expect(
    page.getByRole('region', { name: 'Outputs' }).getByText('eu-west-1'),
  ).toBeVisible();
  await expect(page.getByText('Current resources (4)')).toBeVisible();
  await expect(
    page.getByText('terraform_data.dashboard', { exact: true }),
  ).toBeVisible();
});

test('a person approves the waiting run, which goes on to its apply', async ({
  page,
}) => {
  await signIn(page, '/catalog/default/component/payments-api/infra-runs');
  await expect(
    page.getByText(/which waits for approval/).first(),
  ).toBeVisible();

  // Its own row: the run held behind it names it too ("Waits for Raise the alert thresholds").
  const waitingRow = () =>
    page
      .getByRole('row', { name: /Raise the alert thresholds/ })
      .filter({ hasNotText: 'Add the on-call route' });
  await waitingRow()
    .getByRole('link', { name: 'Raise the alert thresholds' })
    .click();
  // The demo's plan of the example module, which the local runner's apply would plan again.
  await expect(page.getByText('Plan: +0 ~3 −0')).toBeVisible();
  await expect(page.getByText('Resource changes (3)')).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/pipeline-runs-tab.png`,
    fullPage: true,
  });

  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Approve the plan?')).toBeVisible();
  // The dialog repeats the plan's counts before anything is applied.
  await expect(dialog.getByText('The plan changes 3 resources.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();

  // The run has a page of its own, linkable.
  await expect(page).toHaveURL(/\/infra-runs\/[0-9a-f-]{36}$/);
  // The run goes on (RUNNING, still holding the stack): its apply waits for a runner, which
  // it says, unless one is connected.
  const goesOn = /^(Running|Waiting for a runner)$/;
  await expect(
    page.getByRole('region', { name: 'Run details' }).getByText(goesOn).first(),
  ).toBeVisible();
  await page.getByRole('link', { name: 'All runs' }).click();
  await expect(waitingRow().getByText(goesOn)).toBeVisible();
});

test('a run page offers the step not chosen in its changes as a button to press', async ({
  page,
}) => {
  await signIn(page, '/infra-delivery/runs');
  await page.getByRole('link', { name: 'Initial rollout' }).click();
  const steps = page.getByRole('group', { name: 'Changes reported by' });
  const plan = steps.getByRole('button', { name: /^Plan \(/ });
  await expect(plan).toHaveAttribute('aria-pressed', 'false');
  await expect(
    steps.getByRole('button', { name: /^Apply \(/ }),
  ).toHaveAttribute('aria-pressed', 'true');
  // Not in the disabled text's grey (MUI's 38 % black, 2.7:1 on the card), which read as a
  // step that could not be chosen.
  expect(
    await plan.evaluate(element => getComputedStyle(element).color),
  ).not.toBe('rgba(0, 0, 0, 0.38)');
});

test('a stack is a catalog entity with its relations and tabs', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const monitoring = 'stack-0193a8c0-0000-7000-8000-00000000d001';
  await signIn(page, `/catalog/default/resource/${monitoring}`);
  // The catalog module reads the service every 30 s locally; the first read may come late.
  // A reload renews the guest session first, which takes a while on a busy machine: give it
  // time, and sign in again when the session did not survive.
  const enter = page.getByRole('button', { name: 'Enter' });
  const stackType = page.getByText('iac-stack').first();
  await expect(async () => {
    await page.reload();
    await expect(stackType.or(enter).first()).toBeVisible({ timeout: 15_000 });
    if (await enter.isVisible()) {
      await enter.click();
    }
    await expect(stackType).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 150_000 });
  await expect(page.getByText('infra-project-payments').first()).toBeVisible();
  // The relations graph: the stack depends on the cloud account it deploys into and on its
  // environment, and the component that names it depends on it.
  const graph = page.locator('svg#dependency-graph');
  for (const node of [
    'Production (demo)',
    'Payments · Production',
    'payments-api',
  ]) {
    await expect(graph.getByText(node, { exact: true })).toBeVisible();
  }
  await page.screenshot({
    path: `${SCREENSHOTS}/stack-entity-relations.png`,
    fullPage: true,
  });
  await page.getByRole('link', { name: 'Stacks', exact: true }).click();
  await expect(page.getByRole('row', { name: /Monitoring/ })).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/stack-entity.png`,
    fullPage: true,
  });
});

test('a project is a catalog system with its stacks and runs', async ({
  page,
}) => {
  // After the stack entity's test: the catalog has read the service by now.
  await signIn(page, '/catalog/default/system/infra-project-payments');
  await page.getByRole('link', { name: 'Stacks', exact: true }).click();
  for (const stack of ['Monitoring', 'Network']) {
    await expect(
      page.getByRole('row', { name: new RegExp(stack) }),
    ).toBeVisible();
  }
  await page.getByRole('link', { name: 'Pipeline runs', exact: true }).click();
  await expect(page.getByText(/^Pipeline runs \(\d+\)$/)).toBeVisible();
  await expect(page.getByRole('row', { name: /First plan/ })).toBeVisible();
});

test('an AWS account is connected through the local driver', async ({
  page,
}) => {
  await signIn(page, '/infra-delivery/cloud-accounts');
  await expect(
    page
      .getByRole('row', { name: /Production \(demo\)/ })
      .getByText('Connected'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Add AWS account' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add an AWS account' });
  await addDialog.getByLabel(/^Name/).fill('Analytics');
  await addDialog.getByLabel(/^Id/).fill('analytics');
  await addDialog.getByLabel('AWS account id').fill('333333333333');
  await addDialog.getByRole('button', { name: 'Add and connect' }).click();
  await expect(addDialog).toBeHidden();

  const dialog = page.getByRole('dialog');
  // The local driver publishes no template to S3, so the console's quick-create link is absent.
  await expect(
    dialog.getByRole('link', { name: 'Download the template' }),
  ).toHaveAttribute('href', /\/cloud-accounts\/[^/]+\/onboarding-template\?/);
  await expect(
    dialog.getByText(/open CloudFormation, choose Create stack and upload it/),
  ).toBeVisible();
  await dialog
    .getByRole('button', { name: 'Connect with the local driver' })
    .click();
  await expect(
    dialog.getByText(
      /Analytics is connected with role arn:aws:iam::333333333333/,
    ),
  ).toBeVisible();
  // The launch instructions give way to what comes next: a stack in the account.
  await expect(
    dialog.getByRole('button', { name: 'Connect with the local driver' }),
  ).toHaveCount(0);
  await expect(
    dialog.getByRole('button', { name: 'Create a stack in Analytics' }),
  ).toHaveAttribute(
    'href',
    /\/create\/templates\/default\/infra-delivery-stack\?formData=/,
  );
  await page.screenshot({
    path: `${SCREENSHOTS}/cloud-account-connected.png`,
    fullPage: true,
  });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(
    page.getByRole('row', { name: /Analytics/ }).getByText('Connected'),
  ).toBeVisible();
});

test('the metrics tab charts the service from the local cloud driver', async ({
  page,
}) => {
  await signIn(page, '/catalog/default/component/payments-api/infra-metrics');
  await expect(page.getByText('CPU utilization (%)')).toBeVisible();
  await expect(page.getByText('Memory utilization (%)')).toBeVisible();
  await expect(page.locator('.recharts-line').first()).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/metrics-tab.png`,
    fullPage: true,
  });
});

test('a deployment is rolled back and the rollback runs to completion', async ({
  page,
}) => {
  await signIn(
    page,
    '/catalog/default/component/payments-api/infra-deployments',
  );
  const earliest = page.getByRole('row', { name: /Release 1\.0\.0/ });
  await expect(earliest.getByText('Succeeded', { exact: true })).toBeVisible();
  await expect(
    page
      .getByRole('row', { name: /Release 1\.2\.0/ })
      .getByText('Failed', { exact: true }),
  ).toBeVisible();

  // A release opens on what it changed against the one before.
  await page
    .getByRole('row', { name: /Release 1\.1\.0/ })
    .getByRole('button', { name: /^Details of / })
    .click();
  await expect(
    page.getByText(/Task definition · payments-api:\d+ → payments-api:\d+/),
  ).toBeVisible();
  const diff = page.locator('pre', {
    hasText: 'containerDefinitions.app.image',
  });
  await expect(diff).toContainText(
    '- "registry.example.com/payments-api:1.0.0"',
  );
  await expect(diff).toContainText(
    '+ "registry.example.com/payments-api:1.1.0"',
  );
  await page.screenshot({
    path: `${SCREENSHOTS}/deployments-release-diff.png`,
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Close' }).click();

  await earliest.getByRole('button', { name: 'Roll back' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/payments-api:1\.0\.0/)).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/deployments-rollback.png`,
    fullPage: true,
  });
  await dialog.getByRole('button', { name: 'Roll back' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status')).toContainText(
    'A rollback to “Release 1.0.0” started.',
  );

  // The rollback is named after the release it returns to.
  const rollback = page
    .getByRole('row', { name: /Rollback to “Release 1\.0\.0”/ })
    .first();
  await expect(rollback).toBeVisible();
  // The local driver walks the deployment through its stages; the tab follows it.
  await expect(rollback.getByText('Succeeded', { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await page.screenshot({
    path: `${SCREENSHOTS}/deployments-tab.png`,
    fullPage: true,
  });
});

test('an API key is shown once and can be revoked', async ({ page }) => {
  await signIn(page, '/infra-delivery/organization');
  const keys = page.locator('.MuiCard-root', { hasText: 'API keys' });
  await keys.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create an API key' });
  await create.getByLabel(/^Name/).fill('laptop');
  await create.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await expect(dialog.getByLabel('secret value')).toHaveValue(/^idk_/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = keys.getByRole('row', { name: /laptop/ });
  await expect(row).toBeVisible();
  await page.screenshot({
    path: `${SCREENSHOTS}/organization-settings.png`,
    fullPage: true,
  });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(row).toBeHidden();
});
