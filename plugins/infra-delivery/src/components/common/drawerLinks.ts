import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The query parameter of each tab whose rows open in a drawer: `?stack=<id>`,
 * `?deployment=<id>`, `?module=<id>`, `?project=<id>`.
 */
const DRAWER_PARAMS = {
  stack: 'stack',
  deployment: 'deployment',
  module: 'module',
  project: 'project',
} as const;

export type Drawer = keyof typeof DRAWER_PARAMS;

/** The tab at `tabPath` with the drawer of `id` open; undefined where the tab is not mounted. */
export function drawerLink(
  tabPath: string | undefined,
  drawer: Drawer,
  id: string,
): string | undefined {
  return tabPath
    ? `${tabPath}?${new URLSearchParams({ [DRAWER_PARAMS[drawer]]: id })}`
    : undefined;
}

/**
 * The id whose drawer is open, kept in the page's query string so that a link can open it
 * and the browser's Back closes it: opening adds a history entry, closing replaces it.
 */
export function useOpenedDrawer(
  drawer: Drawer,
): [string | undefined, (id?: string) => void] {
  const name = DRAWER_PARAMS[drawer];
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (id?: string) =>
      setParams(
        current => {
          const next = new URLSearchParams(current);
          if (id) next.set(name, id);
          else next.delete(name);
          return next;
        },
        { replace: !id },
      ),
    [name, setParams],
  );
  return [params.get(name) ?? undefined, set];
}
