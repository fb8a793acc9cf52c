import fs from 'node:fs';
import { expect, Page } from '@playwright/test';

/**
 * Where the plugin's own markup is: page content (Backstage's `Content` is an `<article>`),
 * dialogs and drawers. The app shell around it — sidebar, page header, tabs — is Backstage's
 * and the adopting portal's, so rules about the whole page (landmarks, a page's one `<h1>`)
 * are not the plugin's either.
 */
const PLUGIN_MARKUP = [
  ['article'],
  ['[role="dialog"]'],
  ['[role="presentation"] .MuiDrawer-paper'],
];
/**
 * Inside the page content, the tab bar of a page with sub-pages is the app shell's
 * (`@backstage/ui` Tabs, rendered by the frontend system for SubPageBlueprint), not the plugin's.
 * (Backstage's `LogViewer`, which a step's log is shown in, is checked: the plugin mends its
 * markup, `AccessibleLogViewer`.)
 */
const NOT_PLUGIN_MARKUP = [['[role="tablist"]']];
const PAGE_RULES_OFF = {
  region: { enabled: false },
  'landmark-one-main': { enabled: false },
  'page-has-heading-one': { enabled: false },
};

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core (from node_modules) in the page and fails with what it found. */
export async function expectNoAxeViolations(page: Page, state: string) {
  // Evaluated, not added as a script tag: the portal's Content-Security-Policy refuses inline
  // scripts, and the check runs against the page as it is served.
  await page.evaluate(
    fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'),
  );
  const violations: Violation[] = await page.evaluate(
    async ([include, exclude, rules]) => {
      const axe = (window as any).axe;
      // axe refuses a context selector that matches nothing.
      const present = include.filter(([selector]) =>
        document.querySelector(selector),
      );
      const result = await axe.run(
        { include: present, exclude },
        { rules, resultTypes: ['violations'] },
      );
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map(
          (n: any) => `${n.target.join(' ')} :: ${n.html.slice(0, 160)}`,
        ),
      }));
    },
    [PLUGIN_MARKUP, NOT_PLUGIN_MARKUP, PAGE_RULES_OFF] as const,
  );
  expect(violations, `axe-core violations on ${state}`).toEqual([]);
}
