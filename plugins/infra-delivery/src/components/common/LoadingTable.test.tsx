import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { LoadingTable } from './LoadingTable';

interface Row {
  id: string;
  name: string;
}

const columns = [{ title: 'Name', field: 'name' as const }];

describe('LoadingTable', () => {
  it('keeps the height of its rows while it loads, named for a screen reader', async () => {
    await renderInTestApp(
      <LoadingTable<Row>
        title="Members"
        columns={columns}
        data={[]}
        loading
        loadingLabel="Loading members"
        loadingRows={4}
      />,
    );

    // Rows of grey bars as tall as rows, not a 4 px progress bar: the cards under the table
    // jumped down as it filled (the Organization page at 800 px shifted as its cards loaded).
    const loading = screen.getByRole('progressbar', {
      name: 'Loading members',
    });
    const bars = Array.from(loading.children);
    expect(bars).toHaveLength(4);
    for (const bar of bars) {
      expect(getComputedStyle(bar).height).toBe('56px');
    }
  });

  it('shows its rows once loaded', async () => {
    await renderInTestApp(
      <LoadingTable<Row>
        title="Members"
        columns={columns}
        data={[{ id: '1', name: 'guest' }]}
        loading={false}
        loadingLabel="Loading members"
      />,
    );

    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(await screen.findByText('guest')).toBeInTheDocument();
  });
});
