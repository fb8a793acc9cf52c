import { Page } from '@playwright/test';

/**
 * What a narrow window or a zoomed page does to the plugin's markup, measured in the browser
 * (jsdom lays nothing out). A phone is 390 CSS px wide; 200 % zoom of a 1,280 px window is a
 * 640 px wide viewport at a device scale factor of 2, which is how Chromium lays out a zoomed
 * page (its media queries see 640 px).
 */

/** A phone held upright (an iPhone 12 to 15). */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
};
/** A 1,280 × 800 window at 200 % zoom. */
export const ZOOMED = {
  viewport: { width: 640, height: 400 },
  deviceScaleFactor: 2,
};

/** The smallest text the plugin shows: 12 px, MUI's caption. */
export const SMALLEST_TEXT_PX = 12;
/** WCAG 2.2's minimum target size (2.5.8): 24 × 24 CSS px. */
export const SMALLEST_TARGET_PX = 24;

/**
 * The plugin's own markup: its pages' content (Backstage's `Content` is an `<article>`), its
 * dialogs and drawers, and the Infrastructure page's header with its tabs, which the plugin
 * contains (the entity page's header is the catalog's).
 */
const PLUGIN_MARKUP = [
  'article',
  '[role="dialog"]',
  '[role="presentation"] .MuiDrawer-paper',
  '[data-infra-delivery-page] .bui-PluginHeader',
];

export interface NarrowMeasurement {
  /** How far the page scrolls sideways, in CSS px (0 when it does not). */
  pageOverflow: number;
  /** The outermost elements of the plugin's markup that reach past the viewport's right edge. */
  offenders: string[];
  /** Text in the plugin's markup under {@link SMALLEST_TEXT_PX}. */
  smallText: string[];
  /** Buttons, links and fields under {@link SMALLEST_TARGET_PX} either way (links in a sentence excepted). */
  smallTargets: string[];
  /** Text cut off by a box that hides its overflow (an ellipsis on purpose included). */
  clippedText: string[];
}

/**
 * Measures the page as it is now: see {@link NarrowMeasurement}. `only` narrows the plugin's
 * markup to a selector: the plugin's card on the catalog's entity Overview, among the catalog's.
 */
export function measureNarrowness(
  page: Page,
  only?: string,
): Promise<NarrowMeasurement> {
  return page.evaluate(
    ([roots, smallestText, smallestTarget]) => {
      const viewportRight = document.documentElement.clientWidth;
      const scroller = document.scrollingElement!;
      const describe = (element: Element) => {
        const tag = element.tagName.toLowerCase();
        const role = element.getAttribute('role');
        const label =
          element.getAttribute('aria-label') ??
          (element.textContent ?? '').trim().replace(/\s+/g, ' ');
        const classes = [...element.classList]
          .filter(name => /^(Mui|bui-|Backstage)/.test(name))
          .slice(0, 2)
          .join('.');
        return `${tag}${role ? `[role=${role}]` : ''}${
          classes ? `.${classes}` : ''
        } "${label.slice(0, 50)}"`;
      };
      const visible = (element: Element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return (
          style.visibility !== 'hidden' &&
          style.display !== 'none' &&
          box.width > 0 &&
          box.height > 0
        );
      };
      // Text for screen readers only: a 1 px box that clips on purpose.
      const visuallyHidden = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width <= 1 || box.height <= 1;
      };
      /** Whether `element` sits in a box of its own that scrolls or hides sideways. */
      const inSidewaysBox = (element: Element, root: Element) => {
        for (
          let up = element.parentElement;
          up && up !== root.parentElement;
          up = up.parentElement
        ) {
          if (getComputedStyle(up).overflowX !== 'visible') return up;
        }
        return undefined;
      };

      const pluginRoots = roots.flatMap(selector => [
        ...document.querySelectorAll(selector),
      ]);
      // An open dialog hides the page under it: only the dialog is measured then.
      const dialogs = pluginRoots.filter(root =>
        root.closest('[role="presentation"]'),
      );
      const measured = (dialogs.length > 0 ? dialogs : pluginRoots).filter(
        root =>
          !pluginRoots.some(other => other !== root && other.contains(root)),
      );

      const offenders = new Set<string>();
      const smallText = new Set<string>();
      const smallTargets = new Set<string>();
      const clippedText = new Set<string>();
      const targets: { element: Element; box: DOMRect }[] = [];
      for (const root of measured) {
        for (const element of root.querySelectorAll('*')) {
          if (!visible(element) || visuallyHidden(element)) continue;
          const box = element.getBoundingClientRect();
          if (
            box.right > viewportRight + 1 &&
            !inSidewaysBox(element, root) &&
            // The outermost only: its children reach past the edge because it does.
            !(
              element.parentElement &&
              element.parentElement.getBoundingClientRect().right >
                viewportRight + 1 &&
              !inSidewaysBox(element.parentElement, root)
            )
          ) {
            offenders.add(
              `${describe(element)} reaches ${Math.round(
                box.right - viewportRight,
              )} px past the viewport`,
            );
          }
          if (
            element.matches(
              'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=tab], [role=switch], [role=checkbox], [role=radio], [role=option], [role=menuitem]',
            ) &&
            !element.closest('[role=row] [role=checkbox]')
          ) {
            // A link in a sentence is excepted (WCAG 2.5.8's "inline" exception).
            const block = element.parentElement?.closest(
              'p, li, td, .MuiTypography-root, dd',
            );
            const inline =
              element.tagName === 'A' &&
              block &&
              (block.textContent ?? '').trim().length >
                (element.textContent ?? '').trim().length;
            if (!inline) targets.push({ element, box });
          }
          for (const node of element.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim())
              continue;
            const text = node.textContent.trim().replace(/\s+/g, ' ');
            // As drawn: a transform scales it (MUI shrinks a field's label to 75 %).
            const ratio =
              element instanceof HTMLElement && element.offsetHeight > 0
                ? box.height / element.offsetHeight
                : 1;
            // offsetHeight is whole pixels: a ratio within 5 % of 1 is rounding.
            const drawn = Math.abs(ratio - 1) < 0.05 ? 1 : ratio;
            const size =
              Math.round(
                parseFloat(getComputedStyle(element).fontSize) * drawn * 10,
              ) / 10;
            if (size < smallestText) {
              smallText.add(`"${text.slice(0, 50)}" at ${size} px`);
            }
            const range = document.createRange();
            range.selectNodeContents(node);
            const ink = range.getBoundingClientRect();
            if (ink.width === 0) continue;
            for (
              let up: Element | null = element;
              up && up !== root.parentElement;
              up = up.parentElement
            ) {
              const style = getComputedStyle(up);
              if (style.overflowX !== 'hidden' && style.overflowX !== 'clip')
                continue;
              const edge = up.getBoundingClientRect();
              const cut = Math.max(
                ink.right - edge.right,
                edge.left - ink.left,
              );
              if (cut > 1) {
                clippedText.add(
                  `"${text.slice(0, 50)}" cut ${Math.round(
                    cut,
                  )} px by ${describe(up).slice(0, 60)}`,
                );
              }
              break;
            }
          }
        }
      }
      // WCAG 2.5.8's spacing exception: a smaller target passes when a 24 px circle on its
      // centre reaches no other target, nor the circle of another smaller one.
      const undersized = (box: DOMRect) =>
        box.width < smallestTarget - 0.5 || box.height < smallestTarget - 0.5;
      const centre = (box: DOMRect) => ({
        x: box.left + box.width / 2,
        y: box.top + box.height / 2,
      });
      const distanceToBox = (point: { x: number; y: number }, box: DOMRect) =>
        Math.hypot(
          Math.max(box.left - point.x, 0, point.x - box.right),
          Math.max(box.top - point.y, 0, point.y - box.bottom),
        );
      for (const { element, box } of targets) {
        if (!undersized(box)) continue;
        const at = centre(box);
        const crowded = targets.some(other => {
          if (
            other.element === element ||
            other.element.contains(element) ||
            element.contains(other.element)
          )
            return false;
          return undersized(other.box)
            ? Math.hypot(
                at.x - centre(other.box).x,
                at.y - centre(other.box).y,
              ) < smallestTarget
            : distanceToBox(at, other.box) < smallestTarget / 2;
        });
        if (crowded) {
          smallTargets.add(
            `${describe(element)} ${Math.round(box.width)}×${Math.round(
              box.height,
            )}, less than 12 px from another`,
          );
        }
      }
      return {
        pageOverflow: Math.max(0, scroller.scrollWidth - scroller.clientWidth),
        offenders: [...offenders],
        smallText: [...smallText],
        smallTargets: [...smallTargets],
        clippedText: [...clippedText],
      };
    },
    [
      only ? [only] : PLUGIN_MARKUP,
      SMALLEST_TEXT_PX,
      SMALLEST_TARGET_PX,
    ] as const,
  );
}
