import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Component tests render whole MUI tables and dialogs; on a shared 2-core machine under load one
// test can take longer than Jest's 5 s default without anything being wrong.
jest.setTimeout(30_000);
// For the same reason a `findBy…` query may wait longer than Testing Library's 1 s default for
// the page to render its data: role queries over a whole MUI page took over a second in a CI
// run beside a benchmark (OrganizationSettingsPage, "Unable to find role=button"), and over 5 s
// with three other test runs on the two cores (the same page, "Unable to find role=status"). A
// query that finds what it looks for returns at once: only a failing test waits the whole time.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lays nothing out, so the AutoSizer inside Backstage's LogViewer measures 0×0 and renders
// no line at all: give it the size the log viewer has in the portal.
jest.mock('react-virtualized-auto-sizer', () => ({
  __esModule: true,
  default: ({
    children,
  }: {
    children: (size: { width: number; height: number }) => unknown;
  }) => children({ width: 800, height: 320 }),
}));

// JSS looks up `meta[property="csp-nonce"]` for every style element it creates (MUI's makeStyles
// creates one per styled component with dynamic styles), and remembers only a nonce it found:
// with none on the page, it asks again each time, and jsdom's selector engine answers by
// collecting every node of the document and its hundreds of style elements. With a page of 50
// table rows rendered, that was a third of a paging test's time. Such a meta belongs in
// the head: it is looked for among the head's children.
const CSP_NONCE = 'meta[property="csp-nonce"]';
const querySelector = Document.prototype.querySelector;
Document.prototype.querySelector = function querySelectorNonceInHead(
  this: Document,
  selectors: string,
) {
  if (selectors !== CSP_NONCE) {
    return querySelector.call(this, selectors);
  }
  // Walked by sibling: jsdom's HTMLCollection answers each index through a slow proxy.
  for (
    let element = this.head.firstElementChild;
    element;
    element = element.nextElementSibling
  ) {
    if (
      element.localName === 'meta' &&
      element.getAttribute('property') === 'csp-nonce'
    ) {
      return element;
    }
  }
  return null;
} as typeof querySelector;

// material-table takes columns whose functions are new objects for changed columns and works
// them out again at every render; it says so only in a development build's console ("the
// columns provided to material table are static, but contain functions…"). Every test that
// renders a table again fails when the table's columns were made anew
// (src/__testUtils__/columnIdentity.ts).
jest.mock('@backstage/core-components', () => {
  const actual = jest.requireActual('@backstage/core-components');
  const { createElement, useRef } = jest.requireActual('react');
  const { noteColumnsAgain } = jest.requireActual(
    './__testUtils__/columnIdentity',
  );
  function Table(props: { columns: unknown[] }) {
    const previous = useRef(props.columns);
    noteColumnsAgain(previous.current, props.columns);
    previous.current = props.columns;
    return createElement(actual.Table, props);
  }
  return { ...actual, Table };
});

afterEach(() => {
  const { takeUnstableColumns } = jest.requireActual(
    './__testUtils__/columnIdentity',
  );
  const unstable: string[] = takeUnstableColumns();
  if (unstable.length > 0) {
    throw new Error(
      `A table's columns were made anew at a render, functions and all (material-table takes them for changed columns): ${unstable.join(
        '; ',
      )}`,
    );
  }
});
