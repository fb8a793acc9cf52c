import { expect, Page, test } from '@playwright/test';
// The backend's own fake GitHub Enterprise server (test code, not exported by the package),
// given an authorization page that approves at once: the browser goes through it for real.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import { FakeGitHubEnterprise } from '../../../plugins/infra-delivery-backend/src/__testUtils__/fakeGitHubEnterprise';

const SCREENSHOTS = 'docs/screenshots';

/** Signs in as the guest, again if a full page load (the OAuth round trip) asks for it. */
async function enterIfAsked(page: Page, ready: ReturnType<Page['getByText']>) {
  const enter = page.getByRole('button', { name: 'Enter' });
  await expect(ready.or(enter).first()).toBeVisible({ timeout: 60_000 });
  if (await enter.isVisible()) {
    await enter.click();
  }
}

test('a member registers a self-hosted server and logs in to it from the portal', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const forge = new FakeGitHubEnterprise();
  await forge.start();
  try {
    const name = `Corporate GitHub ${Date.now()}`;
    await page.goto('/infra-delivery/organization');
    await page.getByRole('button', { name: 'Enter' }).click();
    const card = page
      .locator('.MuiCard-root')
      .filter({ hasText: 'Self-hosted git servers' });
    await card.getByRole('button', { name: 'Register server' }).click();
    const register = page.getByRole('dialog', {
      name: 'Register a self-hosted git server',
    });
    // The callback is on the portal's own address (app.baseUrl).
    await expect(register).toContainText(
      `${new URL(page.url()).origin}/infra-delivery/gitforge/callback`,
    );
    await register.getByLabel(/^Name/).fill(name);
    await register.getByLabel(/^Server address/).fill(forge.baseUrl);
    await register.getByLabel(/^OAuth client id/).fill(forge.clientId);
    await register.getByLabel(/^OAuth client secret/).fill(forge.clientSecret);
    await register.getByRole('button', { name: 'Register' }).click();
    await expect(register).toBeHidden();

    const row = card.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Not logged in');
    await row.getByRole('button', { name: `Log in to ${name}` }).click();

    // The server approves at once and sends the browser back to the portal's callback page,
    // which completes the login with the signed-in member's credential.
    const done = page.getByText(`Logged in to ${name}`);
    await enterIfAsked(page, done);
    await expect(done).toBeVisible();
    expect(page.url()).toContain('/infra-delivery/gitforge/callback?');
    expect(forge.tokenRequests).toHaveLength(1);
    await page.screenshot({
      path: `${SCREENSHOTS}/self-hosted-login-done.png`,
      fullPage: true,
    });

    await page
      .getByRole('link', { name: 'Back to the self-hosted servers' })
      .click();
    await expect(
      page
        .locator('.MuiCard-root')
        .filter({ hasText: 'Self-hosted git servers' })
        .getByRole('row', { name: new RegExp(name) }),
    ).toContainText('Logged in');
    await page.screenshot({
      path: `${SCREENSHOTS}/self-hosted-servers.png`,
      fullPage: true,
    });
  } finally {
    await forge.stop();
  }
});
