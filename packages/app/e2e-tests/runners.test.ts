import { expect, Page, test } from '@playwright/test';
import { localRunnerToken, startReferenceRunner } from './referenceRunner';

const SCREENSHOTS = 'docs/screenshots';

// The tests build on each other, in order: the first applies Network with the reference runner
// (the runner fleet then lists it, and a drift check then has applied resources to compare).
test.describe.configure({ mode: 'serial' });

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

test('a plan waits for a runner, then streams its logs live, waits for the approval and applies', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, '/catalog/default/component/payments-api/infra-stacks');
  const network = page.getByRole('row', { name: /Network/ });
  await expect(network).toBeVisible();
  // Columns: Stack, Latest run, Drift, Resources, …
  const resourcesBefore = await network.getByRole('cell').nth(3).innerText();

  await network.getByRole('button', { name: 'Plan & apply' }).click();
  await page
    .getByRole('dialog')
    .getByLabel('What is this run for? (optional)')
    .fill('Apply the network from the portal');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: 'Plan & apply' })
    .click();

  // No runner is connected: what was pressed says it waits, and the tab says how to start one
  // (a string filter is a case-insensitive substring: the notice is the status that starts so).
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'A plan of Network is waiting for a runner.' }),
  ).toBeVisible();
  const notice = page.getByRole('status').filter({
    hasText: /^Waiting for a runner/,
  });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(
    'No runner is connected to this organization',
  );
  await expect(notice).toContainText('--url');
  await page.screenshot({
    path: `${SCREENSHOTS}/stacks-waiting-for-runner.png`,
    fullPage: true,
  });

  await page.getByRole('link', { name: 'Pipeline runs', exact: true }).click();
  const run = page
    .getByRole('row', { name: /Apply the network from the portal/ })
    .first();
  await expect(run).toBeVisible();
  await run.getByText('Apply the network from the portal').click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^Waiting for a runner/ })
      .first(),
  ).toBeVisible();

  // An operator starts the reference runner: the plan's logs appear while it runs.
  const runner = startReferenceRunner({
    token: localRunnerToken(),
    planSeconds: 20,
  });
  try {
    await expect(
      page.getByText('Terraform has been successfully initialized!').first(),
    ).toBeVisible({ timeout: 60_000 });
    // Live: the plan is still running on the runner the step names, and its last lines have
    // not come yet.
    const planStep = page.getByRole('button', { name: /^1\. Plan/ });
    await expect(planStep).toContainText('Running');
    // Named by the service account it signs in with (the local runner's key): the Runners
    // card's name for it.
    await expect(planStep).toContainText('on Local runner');
    await expect(
      page.getByText('Plan: 5 to add, 1 to change, 2 to destroy.'),
    ).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: /^Waiting for a runner/ }),
    ).toHaveCount(0);
    await page.screenshot({
      path: `${SCREENSHOTS}/run-live-logs.png`,
      fullPage: true,
    });
    await expect(
      page.getByText('Plan: 5 to add, 1 to change, 2 to destroy.').first(),
    ).toBeVisible({ timeout: 60_000 });

    // The plan waits for a person, and the owners of the stack hear it in the portal's bell
    // (the guest is in `guests`, the group that owns the demo stacks), linked to the run.
    const runId = page.url().split('/').pop()!;
    const bell = page.getByRole('link', { name: /Notifications/ });
    await expect(bell).toContainText(/[1-9]/, { timeout: 30_000 });
    await bell.click();
    const notification = page
      .getByRole('row', { name: /Network: a plan waits for your approval/ })
      .first();
    await expect(notification).toBeVisible();
    await page.screenshot({
      path: `${SCREENSHOTS}/notification-approval-waiting.png`,
      fullPage: true,
    });
    await notification
      .getByRole('link', { name: /Network: a plan waits for your approval/ })
      .click();
    // The stack's own entity page, on this run.
    await expect(page).toHaveURL(
      new RegExp(`/resource/stack-[^/]+/infra-runs/${runId}$`),
    );
    await expect(
      page.getByRole('region', { name: 'Run details' }),
    ).toBeVisible();

    // Approving it starts the apply on the runner.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page
        .getByRole('region', { name: 'Run details' })
        .getByText('Succeeded')
        .first(),
    ).toBeVisible({ timeout: 90_000 });
    await page.getByRole('link', { name: 'All runs' }).click();
    await expect(
      page
        .getByRole('row', { name: /Apply the network from the portal/ })
        .first()
        .getByText('Succeeded'),
    ).toBeVisible();

    // Back on the Stacks tab, with no reload: the stack's resources are the applied plan's.
    await page.getByRole('link', { name: 'Stacks', exact: true }).click();
    const applied = page.getByRole('row', { name: /Network/ });
    await expect(applied.getByRole('cell').nth(3)).toHaveText('13');
    expect(resourcesBefore).not.toBe('13');
  } finally {
    runner.stop();
  }
});

test('the organization page lists the runner fleet, and an admin connects a runner', async ({
  page,
}) => {
  await signIn(page, '/infra-delivery/organization');
  const card = page.locator('#runners');
  await expect(card.getByRole('row', { name: /e2e-runner/ })).toBeVisible();
  await card.getByRole('button', { name: 'Connect a runner' }).click();
  const dialog = page.getByRole('dialog', { name: /Connect a runner/ });
  await dialog.getByRole('button', { name: /Create/ }).click();
  await expect(dialog).toContainText('INFRA_DELIVERY_RUNNER_TOKEN=idk_');
  await page.screenshot({
    path: `${SCREENSHOTS}/connect-a-runner.png`,
    fullPage: true,
  });
});

test('a drift check pressed in the stack drawer runs on a runner, shows what drifted, and Reconcile queues the change', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, '/catalog/default/component/payments-api/infra-stacks');
  const network = page.getByRole('row', { name: /Network/ });
  await network.getByRole('button', { name: /^Details of / }).click();
  const drawer = page.getByRole('dialog', { name: 'Network' });
  const drift = drawer.getByRole('region', { name: 'Drift' });
  await expect(drift).toBeVisible();

  await drift.getByRole('button', { name: 'Check for drift' }).click();
  await page
    .getByRole('dialog', { name: 'Check Network for drift?' })
    .getByRole('button', { name: 'Check for drift' })
    .click();
  // The drawer says what started, and links to it: no runner is connected yet (another test's
  // runner may still be, busy).
  await expect(
    drawer.getByRole('status').filter({
      hasText: /^A drift check (is waiting for a runner|has started)\./,
    }),
  ).toBeVisible();

  const runner = startReferenceRunner({
    token: localRunnerToken(),
    planSeconds: 2,
  });
  try {
    // The runner's plan (5 to add, 1 to change, 2 to destroy) differs from the stack's state:
    // the stack has drifted, and the drawer lists each drifted resource.
    await expect(drift.getByText(/^Drifted \(\d+ resources?\)$/)).toBeVisible({
      timeout: 90_000,
    });
    await expect(drift.getByText(/^Checked /)).toBeVisible();
    const driftedResources = drift.getByRole('button', { name: /: / });
    await expect(driftedResources.first()).toBeVisible();
    await driftedResources.first().click();
    await expect(drift.getByText('Before').first()).toBeVisible();
    await page.screenshot({
      path: `${SCREENSHOTS}/drift-check-drifted.png`,
      fullPage: true,
    });

    await drift.getByRole('button', { name: 'Reconcile' }).click();
    await page
      .getByRole('dialog', { name: 'Reconcile the drift of Network?' })
      .getByRole('button', { name: 'Reconcile' })
      .click();
    // Until the runner claims its plan, the run waits for it, as its row says.
    const started = drawer.getByRole('status').filter({
      hasText: /^A reconciling plan (is waiting for a runner|has started)\./,
    });
    await expect(started).toBeVisible();

    // The reconciling run is the stack's change pipeline: it plans, then waits for approval.
    await started.getByRole('link', { name: 'Follow the run' }).click();
    const details = page.getByRole('region', { name: 'Run details' });
    await expect(details).toContainText(/Reconcile drift: \d+ resources?/);
    await expect(details).toContainText('Waiting for approval', {
      timeout: 90_000,
    });
    await expect(details).toContainText('Plan: +5 ~1 −2');
    await expect(
      page.getByRole('button', { name: 'Approve', exact: true }),
    ).toBeVisible();
    await page.screenshot({
      path: `${SCREENSHOTS}/drift-reconcile-run.png`,
      fullPage: true,
    });
  } finally {
    runner.stop();
  }
});
