import { expect, Page, test } from '@playwright/test';
import { measureNarrowness, PHONE, ZOOMED } from './narrow';

/**
 * The plugin's pages on a phone (390 px) and in a 1,280 px window at 200 % zoom (640 CSS px at
 * a device scale factor of 2): the Infrastructure page does not scroll sideways, nothing of the
 * plugin's reaches past the window, no text is under 12 px, and no text is cut off by a box too
 * narrow for it. Targets under 24 px are reported with each state's figures (annotations), not
 * failed: the tables' sort labels and links are 16–20 px high. Each state is measured and
 * reported on its own (soft assertions): one run names every defect. The approve dialog is
 * cancelled: nothing here changes the demo data other tests read. The run it opens must still
 * wait for approval: the files run one at a time in the order of their names, and
 * `infraDelivery.test.ts` approves it, so this file's name sorts before that one's (as
 * `accessibility.test.ts`, which opens the same dialog, does).
 */
const ENTITY = '/catalog/default/component/payments-api';

/** Measures the state and fails (softly) on each of its defects. */
async function expectFits(page: Page, state: string, only?: string) {
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  const measured = await measureNarrowness(page, only);
  test.info().annotations.push({
    type: 'narrow',
    description: `${state}: ${JSON.stringify(measured)}`,
  });
  // The whole page is the plugin's only on the Infrastructure page.
  if (!only) {
    expect
      .soft(measured.pageOverflow, `${state}: the page scrolls sideways by`)
      .toBe(0);
  }
  expect.soft(measured.offenders, `${state}: past the window`).toEqual([]);
  expect.soft(measured.smallText, `${state}: text under 12 px`).toEqual([]);
  expect.soft(measured.clippedText, `${state}: text cut off`).toEqual([]);
}

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

/** Opens a dialog with `open`, measures it, and closes it with its `close` button. */
async function inDialog(
  page: Page,
  state: string,
  open: () => Promise<void>,
  close = 'Cancel',
) {
  await open();
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toBeVisible();
  await expectFits(page, state);
  await dialog.getByRole('button', { name: close }).last().click();
  await expect(dialog).toBeHidden();
}

async function walkTheInfrastructurePage(page: Page) {
  await signIn(page, '/infra-delivery');
  await expect(page.getByText('Waiting for approval').first()).toBeVisible();
  await expectFits(page, 'the Overview tab');

  await page.goto('/infra-delivery/runs');
  const run = page.getByRole('link', { name: /Raise the alert thresholds/ });
  await expect(run.first()).toBeVisible();
  await expectFits(page, 'the Runs tab');
  await run.first().click();
  await expect(page.getByText('Resource changes (3)')).toBeVisible();
  // The changes' filter, Plan/Apply and "Show the 1 unchanged" within the card.
  await expectFits(page, 'a run page');
  await inDialog(page, 'the approve dialog', () =>
    page.getByRole('button', { name: 'Approve', exact: true }).click(),
  );

  // The last tab, out of the row's view on a phone until the row scrolls to it.
  await page.goto('/infra-delivery/status');
  await expect(page.getByText('Operational').first()).toBeVisible();
  const status = page.getByRole('tab', { name: 'Status' });
  await expect(status).toBeInViewport({ ratio: 0.95 });
  await expectFits(page, 'the Status tab');

  await page.goto('/infra-delivery/no-such-tab');
  await expect(page.getByText('Go to Overview')).toBeVisible();
  await expectFits(page, 'a path under no tab');
}

async function walkTheEntityTabs(page: Page) {
  await signIn(page, `${ENTITY}/infra-runs`);
  await page.getByRole('link', { name: 'Add the on-call route' }).click();
  await expect(page.getByRole('region', { name: 'Run details' })).toBeVisible();
  await expectFits(page, 'a run page under the entity', 'article');

  await page.goto(`${ENTITY}/infra-metrics`);
  await expect(
    page.getByRole('img', { name: /^CPU utilization \(%\)/ }),
  ).toBeVisible();
  await expectFits(page, 'the Metrics tab', 'article');
}

for (const [name, device] of [
  ['on a phone, 390 px wide', PHONE],
  ['at 200 % zoom of a 1,280 px window', ZOOMED],
] as const) {
  test.describe(name, () => {
    test.use(device);

    test('the Infrastructure page fits', async ({ page }) => {
      test.setTimeout(360_000);
      await walkTheInfrastructurePage(page);
    });

    // The entity page's header and tabs are the catalog's: the plugin's tabs are measured.
    test('the entity tabs fit', async ({ page }) => {
      test.setTimeout(360_000);
      await walkTheEntityTabs(page);
    });
  });
}
