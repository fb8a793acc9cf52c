import { expect, Locator, Page, test } from '@playwright/test';

/**
 * The dialogs by keyboard alone: each opened with Enter takes the focus inside it (MUI left it
 * on the backdrop's container, outside the dialog and with no visible focus), keeps it on its
 * fields and buttons under Tab and Shift+Tab, shows it as a ring on a button (and on the row's
 * or card's button that opened it), closes with Escape and gives it back to the button that opened it.
 * Dialogs are cancelled: nothing here changes the demo data other tests read.
 */
const ENTITY = '/catalog/default/component/payments-api';

test.use({ viewport: { width: 1280, height: 800 } });

/** Tabs forward until `target` has the focus, as a keyboard user gets to it. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate(element => element === document.activeElement)) {
      return;
    }
  }
  throw new Error('Tab never reached the button');
}

/** The width of the outline `element` shows, in px: 0 without one. */
function outlineWidth(element: Locator) {
  return element.evaluate(target => {
    const style = getComputedStyle(target);
    return style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth);
  });
}

async function expectDialogKeepsAndGivesBackFocus(page: Page, opener: Locator) {
  await tabTo(page, opener);
  // The button in a table row or a card's header shows its focus as a ring.
  expect(
    await outlineWidth(opener),
    'the outline of the focused button',
  ).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // In the dialog, on one of its fields or buttons.
  const focused = dialog.locator(':focus');
  await expect(focused).toHaveCount(1);
  expect(
    await focused.evaluate(element =>
      element.matches('input, textarea, button, [role=button]'),
    ),
  ).toBe(true);
  // Round its fields and buttons: never to the page behind, nor to the dialog's own container
  // (MUI 4's focus trap passed through it once a round, between the last button and the
  // first field).
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(
      await page.evaluate(() => {
        const active = document.activeElement;
        return Boolean(
          active?.closest('[role=dialog]') &&
            active.matches('input, textarea, button, [role=button], a[href]'),
        );
      }),
      `the focus is on a field or button of the dialog after ${key}`,
    ).toBe(true);
  }
  // A focused button shows a ring.
  const button = dialog.getByRole('button').last();
  await tabTo(page, button);
  expect(
    await outlineWidth(button),
    'the outline of a focused dialog button',
  ).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test('dialogs take the focus when they open and give it back when they close', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${ENTITY}/infra-stacks`);
  await tabTo(page, page.getByRole('button', { name: 'Enter' }));
  await page.keyboard.press('Enter');
  const monitoring = page.getByRole('row', { name: /Monitoring/ });
  await expect(monitoring).toBeVisible();
  await expectDialogKeepsAndGivesBackFocus(
    page,
    monitoring.getByRole('button', { name: /^Plan & apply/ }),
  );

  await page.goto(`${ENTITY}/infra-deployments`);
  // Any deployment that can be rolled back to: the other tests add rows (a rollback to
  // "Release 1.0.0" named that release too, and broke a locator by name in the full run).
  const rollBack = page
    .getByRole('button', { name: /^Roll back/, disabled: false })
    .first();
  await expect(rollBack).toBeVisible();
  await expectDialogKeepsAndGivesBackFocus(page, rollBack);

  await page.goto('/infra-delivery/organization');
  await expect(page.getByText('API keys').first()).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expectDialogKeepsAndGivesBackFocus(
    page,
    page.getByRole('button', { name: 'Connect a runner' }),
  );
});
