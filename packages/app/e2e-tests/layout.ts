import { expect, Locator, Page } from '@playwright/test';

/**
 * Layout checks measured in the browser: jsdom lays nothing out and knows none of Backstage's
 * theme margins, so what lines up with what is seen only here.
 */

/**
 * Each card's body starts where its title does, and nothing in it starts left of the title:
 * Backstage's InfoCard sets its title 20 px in and its body 16, and text put in the body
 * started 4 px left of the title above it. A table's header cells are measured by their text,
 * inside their padding.
 */
export async function expectCardBodiesAlignedWithTitles(
  page: Page,
  cardTitles: string[],
) {
  for (const title of cardTitles) {
    const heading = page.getByRole('heading', { name: title, exact: true });
    // Loaded: a card still loading has no body to measure.
    const card = page.locator('.MuiCard-root', { has: heading });
    await expect(card.getByRole('progressbar')).toHaveCount(0);
    await expect(card.locator('.MuiCardContent-root').first()).not.toBeEmpty();
    const { first, leftmost, text } = await heading.evaluate(element => {
      /** Where each text and icon under `root` starts, in document order. */
      const inkLefts = (root: Element) => {
        const found: { left: number; text: string }[] = [];
        const walker = document.createTreeWalker(
          root,
          NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT,
        );
        while (walker.nextNode()) {
          const node = walker.currentNode;
          let box: DOMRect | undefined;
          if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            box = range.getClientRects()[0];
          } else if (node instanceof SVGSVGElement) {
            box = node.getBoundingClientRect();
          }
          if (box && box.width > 0) {
            found.push({
              left: box.left,
              text: node.textContent?.trim() || 'an icon',
            });
          }
        }
        return found;
      };
      const titleLeft = inkLefts(element)[0].left;
      const body = inkLefts(
        element
          .closest('.MuiCard-root')!
          .querySelector('.MuiCardContent-root')!,
      ).map(ink => ({ ...ink, left: Math.round(ink.left - titleLeft) }));
      const most = body.reduce((a, b) => (b.left < a.left ? b : a));
      return { first: body[0].left, leftmost: most.left, text: most.text };
    });
    expect(
      Math.abs(first),
      `the body of "${title}" starts ${first} px from its title`,
    ).toBeLessThanOrEqual(1);
    expect(
      leftmost,
      `"${text}" in "${title}" starts ${leftmost} px from its title`,
    ).toBeGreaterThanOrEqual(-1);
  }
}

/**
 * A filter's name sits level with its chips: Backstage's theme gives chips a margin below,
 * which set the name 4 px lower than the chips it names.
 */
export async function expectFilterNamesLevelWithChips(
  page: Page,
  groups: string[],
) {
  const middle = async (locator: Locator) => {
    const box = (await locator.boundingBox())!;
    return box.y + box.height / 2;
  };
  for (const name of groups) {
    const group = page.getByRole('group', { name });
    const label = group.getByText(name, { exact: true });
    const chip = group.getByRole('button').first();
    const off = (await middle(label)) - (await middle(chip));
    expect(
      Math.abs(off),
      `the filter name "${name}" sits ${off} px from its first chip's middle`,
    ).toBeLessThanOrEqual(1);
  }
}

/**
 * The named things start in one column: the overview card's names beside statuses of
 * different widths ("Queued", "Failed") started wherever each status ended.
 */
export async function expectStartingInOneColumn(items: Locator[]) {
  const lefts = await Promise.all(
    items.map(async item => ({
      text: await item.innerText(),
      left: (await item.boundingBox())!.x,
    })),
  );
  for (const { text, left } of lefts.slice(1)) {
    expect(
      Math.abs(left - lefts[0].left),
      `"${text}" starts ${left - lefts[0].left} px from "${lefts[0].text}"`,
    ).toBeLessThanOrEqual(1);
  }
}

/**
 * A filter's chips, once they wrap, go on under its first chip, not under its name: the
 * name and the chips wrapped together, and the second line started under the name. Measured
 * where the chips do wrap (the check fails if they fit on one line, since it would then check
 * nothing).
 */
export async function expectChipsWrappingUnderTheFirst(
  page: Page,
  group: string,
) {
  const boxes = await page
    .getByRole('group', { name: group })
    .getByRole('button')
    .evaluateAll(chips =>
      chips.map(chip => {
        const { left, top } = chip.getBoundingClientRect();
        return { text: chip.textContent, left, top };
      }),
    );
  const [first] = boxes;
  const wrapped = boxes.filter(box => box.top > first.top + 1);
  expect(
    wrapped.length,
    `the chips of "${group}" wrap at this width`,
  ).toBeGreaterThan(0);
  for (const { text, left } of wrapped) {
    expect(
      Math.abs(left - first.left),
      `"${text}" wraps ${left - first.left} px from "${
        first.text
      }", the first chip of "${group}"`,
    ).toBeLessThanOrEqual(1);
  }
}

/**
 * The open dialog's text is all one size, MUI's dialog text (body1): intros written in body2
 * were 14 px above fields and confirmations in 16 px. Captions and fields' help are smaller on
 * purpose and not counted.
 */
export async function expectDialogTextOneSize(page: Page, name?: string) {
  const sizes = await page
    .getByRole('dialog', name ? { name } : undefined)
    .locator(
      '.MuiDialogContent-root :is(.MuiTypography-body1, .MuiTypography-body2)',
    )
    .evaluateAll(elements =>
      elements.map(element => ({
        text: (element.textContent ?? '').slice(0, 40),
        size: getComputedStyle(element).fontSize,
      })),
    );
  expect(sizes.length, 'the dialog has text').toBeGreaterThan(0);
  for (const { text, size } of sizes) {
    expect(size, `"${text}…" in the dialog`).toBe('16px');
  }
}
