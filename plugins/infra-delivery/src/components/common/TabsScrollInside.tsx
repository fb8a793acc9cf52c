import { makeStyles } from '@material-ui/core/styles';
import { ReactNode, useCallback, useEffect, useRef } from 'react';

/**
 * The frontend system's page header (`@backstage/ui`'s PluginHeader) lays its tabs in one row
 * that neither wraps nor scrolls: on a phone (390 px) the Infrastructure page's seven tabs
 * were 560 px wide and the whole page scrolled sideways with them. Here the row of tabs
 * scrolls inside itself, under the header, and the page keeps the window's width.
 */
const useStyles = makeStyles({
  page: {
    // The page takes the width it is given, not the width of its widest row.
    minWidth: 0,
    maxWidth: '100%',
    '& .bui-PluginHeaderTabsWrapper': {
      overflowX: 'auto',
      overflowY: 'hidden',
      // No scroll bar drawn over the tabs' underline: the row is swiped or scrolled by
      // keyboard focus, which brings each tab into view.
      scrollbarWidth: 'none',
      '&::-webkit-scrollbar': { display: 'none' },
    },
    // The tabs keep their width: squeezed, "Organization" broke over two lines.
    '& .bui-PluginHeaderTabsWrapper [role="tab"]': {
      flexShrink: 0,
      whiteSpace: 'nowrap',
    },
  },
});

/** The selected tab scrolled into the row's view, its neighbours' edges showing if they fit. */
function showSelectedTab(row: HTMLElement) {
  const selected = row.querySelector<HTMLElement>(
    '[role="tab"][aria-selected="true"]',
  );
  if (!selected || row.scrollWidth <= row.clientWidth) return;
  const rowBox = row.getBoundingClientRect();
  const tabBox = selected.getBoundingClientRect();
  const margin = 24;
  if (tabBox.left < rowBox.left) {
    row.scrollLeft -= rowBox.left - tabBox.left + margin;
  } else if (tabBox.right > rowBox.right) {
    row.scrollLeft += tabBox.right - rowBox.right + margin;
  }
}

/**
 * A page of the frontend system (its header, tabs and content) whose tabs scroll inside their
 * row when they do not fit, with the selected one in view: on opening a tab by its address
 * and on choosing one.
 */
export const TabsScrollInside = ({ children }: { children: ReactNode }) => {
  const classes = useStyles();
  const observer = useRef<MutationObserver>();
  const ref = useCallback((page: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = undefined;
    if (!page) return;
    const follow = () => {
      const row = page.querySelector<HTMLElement>(
        '.bui-PluginHeaderTabsWrapper',
      );
      if (row) showSelectedTab(row);
    };
    // The header marks the selected tab after it renders, and again at each choice.
    observer.current = new MutationObserver(follow);
    observer.current.observe(page, {
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-selected'],
    });
    follow();
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  return (
    <div ref={ref} className={classes.page} data-infra-delivery-page="">
      {children}
    </div>
  );
};
