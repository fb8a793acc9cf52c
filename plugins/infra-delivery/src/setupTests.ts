import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Component tests render whole MUI tables and dialogs; on a shared 2-core machine under load one
// test can take longer than Jest's 5 s default without anything being wrong.
jest.setTimeout(30_000);
// For the same reason a `findBy…` query may wait longer than Testing Library's 1 s default for
// the page to render its data: role queries over a whole MUI page took over a second in a CI
// run beside a benchmark (OrganizationSettingsPage, "Unable to find role=button").
configure({ asyncUtilTimeout: 5_000 });

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
