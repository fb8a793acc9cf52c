import { expect, Page, test } from '@playwright/test';

const SCREENSHOTS = 'docs/screenshots';

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Enter' }).click();
}

/** Opens a select of the template's form by its label and picks one of its options. */
async function choose(page: Page, label: RegExp, option: string) {
  await page.getByLabel(label).click();
  await page.getByRole('option', { name: option }).click();
}

test('a stack is created from the template, its project, environment and cloud account chosen by name', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A name of its own per run: the demo data outlives a single run locally.
  const name = `Cache ${Date.now().toString(36)}`;
  await signIn(page, '/create/templates/default/infra-delivery-stack');

  await choose(page, /^Project/, 'Payments (payments)');
  await choose(page, /^Environment/, 'Staging (staging)');
  await page.screenshot({
    path: `${SCREENSHOTS}/stack-template-where.png`,
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByLabel(/^Name/).fill(name);
  await choose(page, /^Cloud account/, 'Production (demo) · 111111111111');
  await page.getByRole('button', { name: 'Next' }).click();

  // No first plan here: the reference runner would plan a stack without code.
  await page.getByLabel(/Trigger the first plan now/).uncheck();
  await page.getByRole('button', { name: 'Review' }).click();
  // The review names what was chosen, never an id.
  await expect(
    page.getByRole('row', { name: /Cloud account.*Production \(demo\)/ }),
  ).toBeVisible();
  await expect(page.getByText(/[0-9a-f]{8}-[0-9a-f]{4}-/)).toHaveCount(0);
  // In the order of the form: no default ahead of what was typed.
  const reviewed = await page
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .allInnerTexts();
  expect(reviewed.slice(0, 3).map(row => row.split(/\s*[\t\n]\s*/)[0])).toEqual(
    ['Project', 'Environment', 'Name'],
  );
  await page.getByRole('button', { name: 'Create' }).click();

  // Said in the names chosen, not ids.
  await expect(
    page.getByText(
      `Stack ${name} is created in Payments (payments) · Staging (staging).`,
      { exact: false },
    ),
  ).toBeVisible({ timeout: 60_000 });
  // The new stack's own details are linked, under its name; no first run was asked for: no
  // link to one, nor a line about it.
  await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute(
    'href',
    /\/infra-delivery\/overview\?stack=[0-9a-f-]{36}$/,
  );
  await expect(page.getByRole('link', { name: 'First run' })).toHaveCount(0);

  // The stack is the service's: the Infrastructure page lists it.
  await page.goto('/infra-delivery/overview');
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
});

test('an environment just added leads to the stack template, its project and environment chosen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const project = `Walk ${suffix}`;
  await signIn(page, '/infra-delivery/projects');

  await page.getByRole('button', { name: 'Create project' }).click();
  const create = page.getByRole('dialog', { name: 'Create a project' });
  await create.getByLabel(/^Name/).fill(project);
  await create.getByRole('button', { name: 'Create the project' }).click();
  const drawer = page.getByRole('dialog', { name: project });
  await drawer.getByRole('button', { name: 'Add environment' }).click();
  const add = page.getByRole('dialog', {
    name: `Add an environment to ${project}`,
  });
  await add.getByLabel(/^Name/).fill('Dev');
  await add.getByRole('button', { name: 'Add the environment' }).click();

  // What comes next is said where the environment was added.
  await expect(
    drawer.getByText('Dev is added: stacks are created in it next.'),
  ).toBeVisible();
  await drawer.getByRole('link', { name: 'Create a stack in Dev' }).click();

  await expect(page).toHaveURL(
    /\/create\/templates\/default\/infra-delivery-stack\?formData=/,
  );
  await expect(page.getByLabel(/^Project/)).toHaveText(
    `${project} (walk-${suffix})`,
  );
  await expect(page.getByLabel(/^Environment/)).toHaveText('Dev (dev)');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^Name/).fill(`Queue ${suffix}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/Trigger the first plan now/).uncheck();
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByRole('row', { name: new RegExp(`Project.*${project}`) }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(
    page.getByText(
      `Stack Queue ${suffix} is created in ${project} (walk-${suffix}) · Dev (dev).`,
      { exact: false },
    ),
  ).toBeVisible({ timeout: 60_000 });
});
