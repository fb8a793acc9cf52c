import { test, expect } from '@playwright/test';

test('the portal signs in a guest and shows the infrastructure page', async ({
  page,
}) => {
  await page.goto('/');

  const enterButton = page.getByRole('button', { name: 'Enter' });
  await expect(enterButton).toBeVisible();
  await enterButton.click();

  const nav = page.getByRole('navigation', { name: 'sidebar nav' });
  await expect(
    nav.getByRole('link', { name: 'Catalog', exact: true }),
  ).toBeVisible();

  await nav.getByRole('link', { name: 'Infrastructure', exact: true }).click();
  // It opens on the organization's infrastructure, not on the service's health.
  await expect(page).toHaveURL(/\/infra-delivery\/overview/);
  await expect(
    page.getByText('Waiting for approval', { exact: true }),
  ).toBeVisible();
  // In the approval card, and named by the run held behind it in the Stacks card.
  await expect(
    page.getByText('Raise the alert thresholds').first(),
  ).toBeVisible();
  // The Stacks card answers after the others (it reads each stack's last run): the overview is
  // whole once a stack's row is there, and its screenshot showed an empty card before.
  await expect(
    page.getByText('monitoring', { exact: true }).first(),
  ).toBeVisible();
  await page.screenshot({
    path: 'docs/screenshots/infrastructure-overview.png',
    fullPage: true,
  });

  await page
    .getByRole('tab', { name: 'Status' })
    .or(page.getByRole('link', { name: 'Status', exact: true }))
    .first()
    .click();
  await expect(page.getByText('Operational')).toBeVisible();
  await expect(page.getByText('Infrastructure Delivery Service')).toBeVisible();
  await page.screenshot({
    path: 'docs/screenshots/service-status-page.png',
    fullPage: true,
  });
});
