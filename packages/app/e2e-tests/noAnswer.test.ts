import { expect, Page, Route, test } from '@playwright/test';

/**
 * A backend that stops answering, in a real browser: the portal's requests to the plugin are
 * held (never answered) until the test releases them, as by a frozen backend. The portal says
 * so after 10 seconds (the plugin's NO_ANSWER_NOTICE_MS). The Stacks tab first has to read
 * again on its own (every 5 seconds while a run of its stacks is under way, as in the demo's
 * data, every 30 seconds when none is), so its notice may take up to 40.
 */

const API = '**/api/infra-delivery/**';
const STACKS_TAB = '/catalog/default/component/payments-api/infra-stacks';

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

/** Holds the requests `matches` accepts from now on; `release` sends them on. */
async function holdRequests(
  page: Page,
  matches: (route: Route) => boolean = () => true,
) {
  const held: Route[] = [];
  let holding = true;
  await page.route(API, async route => {
    if (holding && matches(route)) held.push(route);
    else await route.fallback();
  });
  // Removing the handler would let Playwright answer what it holds: it stays, and lets go.
  const stopHolding = () => {
    holding = false;
    return held.splice(0);
  };
  return {
    held,
    release: () => Promise.all(stopHolding().map(route => route.continue())),
    refuse: () => Promise.all(stopHolding().map(route => route.abort())),
  };
}

test('the Stacks tab says that the service does not answer, keeps its stacks, and stops saying so once it answers', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signIn(page, STACKS_TAB);
  const monitoring = page.getByRole('row', { name: /Monitoring/ });
  await expect(monitoring).toBeVisible();

  const service = await holdRequests(page);
  const notice = page
    .getByRole('status')
    .filter({ hasText: 'No answer from the infrastructure service for' });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toHaveText(
    /^No answer from the infrastructure service for \d+s: what you see may be out of date\. Retrying…$/,
  );
  expect(service.held.length).toBeGreaterThan(0);
  await expect(monitoring).toBeVisible();

  await service.release();
  await expect(notice).toBeHidden({ timeout: 15_000 });
  await expect(monitoring).toBeVisible();
});

test('the Plan & apply dialog says that its request went unanswered, and Cancel closes it', async ({
  page,
}) => {
  await signIn(page, STACKS_TAB);
  const monitoring = page.getByRole('row', { name: /Monitoring/ });
  await monitoring.getByRole('button', { name: /^Plan & apply/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Plan and apply Monitoring?')).toBeVisible();

  const trigger = await holdRequests(
    page,
    route => route.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Plan & apply' }).click();
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeDisabled();
  await expect.poll(() => trigger.held.length).toBe(1);

  await expect(
    dialog.getByRole('status').filter({
      hasText:
        /^The service has not answered for \d+s\. It may still carry out the request; closing this dialog will not cancel it\.$/,
    }),
  ).toBeVisible({ timeout: 20_000 });
  await expect(cancel).toBeEnabled();
  await cancel.click();
  await expect(dialog).toBeHidden();
  // No run is queued: the other end-to-end tests find Monitoring as the demo left it.
  await trigger.refuse();
});
