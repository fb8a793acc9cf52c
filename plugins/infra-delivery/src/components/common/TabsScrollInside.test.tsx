import { act, render, screen } from '@testing-library/react';
import { TabsScrollInside } from './TabsScrollInside';

/**
 * jsdom lays nothing out: the row's and the tabs' boxes are given here, as a 390 px phone lays
 * them out (the row 350 px wide, seven tabs of 80 px). That the page then does not scroll
 * sideways is measured in the browser (packages/app/e2e-tests/narrowScreens.test.ts).
 */
const ROW_WIDTH = 350;
const TAB_WIDTH = 80;
const TITLES = [
  'Overview',
  'Runs',
  'Projects',
  'Modules',
  'Accounts',
  'Organization',
];

function box(left: number, width: number): DOMRect {
  return {
    left,
    right: left + width,
    width,
    top: 0,
    bottom: 36,
    height: 36,
    x: left,
    y: 0,
    toJSON: () => ({}),
  };
}

/** The header's markup as `@backstage/ui`'s PluginHeader renders it, `selected` marked. */
const Header = ({ selected }: { selected: string }) => (
  <div className="bui-PluginHeader">
    <div className="bui-PluginHeaderTabsWrapper" data-testid="row">
      <div role="tablist">
        {TITLES.concat('Status').map(title => (
          <a
            key={title}
            href={`/infra-delivery/${title.toLowerCase()}`}
            role="tab"
            aria-selected={title === selected ? 'true' : 'false'}
          >
            {title}
          </a>
        ))}
      </div>
    </div>
  </div>
);

/** Lays the row out: its scroll position moves the tabs, as a browser's does. */
function layOut(row: HTMLElement) {
  Object.defineProperty(row, 'clientWidth', { value: ROW_WIDTH });
  Object.defineProperty(row, 'scrollWidth', {
    value: TAB_WIDTH * (TITLES.length + 1),
  });
  row.getBoundingClientRect = () => box(0, ROW_WIDTH);
  row.querySelectorAll<HTMLElement>('[role="tab"]').forEach((tab, index) => {
    tab.getBoundingClientRect = () =>
      box(index * TAB_WIDTH - row.scrollLeft, TAB_WIDTH);
  });
}

describe('TabsScrollInside', () => {
  it('scrolls the row to the selected tab when it is out of view', async () => {
    const page = (selected: string) => (
      <TabsScrollInside>
        <Header selected={selected} />
      </TabsScrollInside>
    );
    const { rerender } = render(page('Overview'));
    const row = screen.getByTestId('row');
    layOut(row);
    const inView = (title: string) => {
      const { left, right } = screen
        .getByRole('tab', { name: title })
        .getBoundingClientRect();
      return left >= 0 && right <= ROW_WIDTH;
    };
    expect(inView('Status')).toBe(false);

    // Status, the seventh tab, from 480 to 560 px: past the row's 350.
    await act(async () => rerender(page('Status')));
    expect(inView('Status')).toBe(true);

    // Back to Overview, out of view now: the row scrolls back to it.
    expect(inView('Overview')).toBe(false);
    await act(async () => rerender(page('Overview')));
    expect(inView('Overview')).toBe(true);
  });
});
