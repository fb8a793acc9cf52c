import { LogViewer } from '@backstage/core-components';
import { useEffect, useRef } from 'react';

/** What the viewer's search result buttons, before its search field, do: in order. */
const STEP_NAMES = ['Previous match', 'Next match'];
const FILTER_NAME = 'Show only the lines that match';
const SEARCH_NAME = 'Search the log';
const COPY_LINES_NAME = 'Copy the selected lines';

function nameIfUnnamed(element: Element, name: string) {
  if (!element.hasAttribute('aria-label')) {
    element.setAttribute('aria-label', name);
  }
}

/**
 * Mends the markup of Backstage's `LogViewer` inside `root` where assistive technology cannot
 * use it (axe-core: `aria-required-parent`, `button-name`):
 * - each line number is a link with `role="row"` outside any grid or table: the role goes, the
 *   link stays, named "Line 12";
 * - the icon buttons by its search field have no name: the filter toggle is named and says
 *   whether it is on (`aria-pressed`, from its icon's colour, the only sign the viewer gives),
 *   and so are the previous/next match buttons and a selected line's copy button.
 * Markup only: the viewer's behaviour and look are untouched. It keys on the viewer's
 * structure (its one text field, `data-testid`s), not its generated class names, which a
 * production build shortens.
 */
export function mendLogViewerMarkup(root: HTMLElement) {
  root.querySelectorAll('a[role="row"]').forEach(lineNumber => {
    lineNumber.removeAttribute('role');
    nameIfUnnamed(lineNumber, `Line ${lineNumber.textContent}`);
  });
  root
    .querySelectorAll('button[data-testid="copy-button"]')
    .forEach(copy => nameIfUnnamed(copy, COPY_LINES_NAME));

  const search = root.querySelector('input');
  if (!search) return;
  nameIfUnnamed(search, SEARCH_NAME);
  // The search field's outermost element: the viewer's header holds it among its buttons.
  let field: Element = search;
  while (field.parentElement && field.parentElement !== root) {
    if (field.parentElement.querySelector('button')) break;
    field = field.parentElement;
  }
  const header = field.parentElement;
  if (!header || header === root) return;
  const controls = Array.from(header.children);
  const at = controls.indexOf(field);
  controls
    .slice(0, at)
    .filter(control => control.tagName === 'BUTTON')
    .forEach((step, i) => {
      if (STEP_NAMES[i]) nameIfUnnamed(step, STEP_NAMES[i]);
    });
  const filter = controls[at + 1];
  if (filter?.tagName === 'BUTTON') {
    nameIfUnnamed(filter, FILTER_NAME);
    const on = !!filter.querySelector('[class*="MuiSvgIcon-colorPrimary"]');
    if (filter.getAttribute('aria-pressed') !== String(on)) {
      filter.setAttribute('aria-pressed', String(on));
    }
  }
}

/**
 * Backstage's `LogViewer`, its markup mended for assistive technology
 * (`mendLogViewerMarkup`): again whenever the viewer renders rows or controls, as it loads
 * lazily, scrolls its virtual list, searches and toggles its filter. It fills its parent, as
 * the viewer does.
 */
export const AccessibleLogViewer = ({ text }: { text: string }) => {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    mendLogViewerMarkup(element);
    const observer = new MutationObserver(() => mendLogViewerMarkup(element));
    observer.observe(element, {
      subtree: true,
      childList: true,
      attributes: true,
      // `role` as React sets it again; `class` as the filter icon changes colour.
      attributeFilter: ['role', 'class'],
    });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={root} style={{ height: '100%' }}>
      <LogViewer text={text} />
    </div>
  );
};
