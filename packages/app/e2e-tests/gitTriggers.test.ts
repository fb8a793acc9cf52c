import { expect, Page, test } from '@playwright/test';

const SCREENSHOTS = 'docs/screenshots';

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

test('a pull request plan shows the pull request and its commit, and the stack its trigger rules', async ({
  page,
}) => {
  await signIn(page, '/catalog/default/component/payments-api/infra-runs');
  const planRow = page.getByRole('row', {
    name: /Plan of pull request #12: Widen the private subnets/,
  });
  await expect(planRow).toBeVisible();
  const trigger = planRow.getByTestId('run-trigger');
  await expect(trigger).toContainText('Pull request #12');
  await expect(trigger).toContainText('· plan ·');
  await expect(trigger).toContainText('a1b2c3d');
  await expect(trigger).toContainText('“Widen the private subnets” by alice');
  await expect(
    trigger.getByRole('link', { name: /Pull request #12/ }),
  ).toHaveAttribute('href', 'https://github.com/acme/network-infra/pull/12');

  // The merge's push run says which push and commit started it.
  await expect(
    page
      .getByRole('row', { name: /Push to main: Widen the private subnets/ })
      .getByTestId('run-trigger'),
  ).toContainText('Push to main · 9f8e7d6');

  // The run's page says it too, linking the commit.
  await planRow.getByRole('link', { name: /Plan of pull request #12/ }).click();
  await expect(page).toHaveURL(/\/infra-runs\/[0-9a-f-]{36}$/);
  const details = page.getByRole('region', { name: 'Run details' });
  // (External links carry "Opens in a new window" for screen readers, between the parts.)
  await expect(details.getByTestId('run-trigger')).toContainText(
    /Pull request #12.* · plan · a1b2c3d/,
  );
  await expect(
    details.getByTestId('run-trigger').getByRole('link', { name: /a1b2c3d/ }),
  ).toHaveAttribute(
    'href',
    'https://github.com/acme/network-infra/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  );
  await page.screenshot({
    path: `${SCREENSHOTS}/pull-request-plan-run.png`,
    fullPage: true,
  });

  // The Network stack's drawer shows the rules that started these runs.
  await page.goto('/catalog/default/component/payments-api/infra-stacks');
  await page
    .getByRole('row', { name: /Network/ })
    .getByRole('button', { name: /^Details of / })
    .click();
  const rules = page.getByRole('region', { name: 'Trigger rules' });
  await expect(rules).toContainText(
    'Pushes to main start the change pipeline · Pull requests into main get a plan, a check run and a comment',
  );
  await expect(rules).toContainText(
    /Follows branch main of acme\/network-infra.* · changes under network/,
  );
  await expect(
    rules.getByRole('link', { name: /acme\/network-infra/ }),
  ).toHaveAttribute('href', 'https://github.com/acme/network-infra');
  await page.screenshot({
    path: `${SCREENSHOTS}/stack-trigger-rules.png`,
  });

  // Whoever may change stacks edits the rules in place: no more comments on pull requests.
  await rules.getByRole('button', { name: 'Edit trigger rules' }).click();
  const editor = page.getByRole('dialog', { name: 'Trigger rules of Network' });
  await expect(editor.getByRole('textbox', { name: 'Branch' })).toHaveValue(
    'main',
  );
  await editor
    .getByRole('checkbox', { name: /and a comment with the plan/ })
    .uncheck();
  await page.screenshot({
    path: `${SCREENSHOTS}/stack-trigger-rules-editor.png`,
  });
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: 'Network follows main' }),
  ).toBeVisible();
  await expect(rules).toContainText(
    'Pull requests into main get a plan and a check run',
  );
});
