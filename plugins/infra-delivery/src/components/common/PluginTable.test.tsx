import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { PluginTable } from './PluginTable';
import { TABLE_OPTIONS } from './tableOptions';

interface Row {
  id: string;
  name: string;
  state: string;
}

const rows: Row[] = [
  { id: '1', name: 'beta', state: 'second' },
  { id: '2', name: 'alpha', state: 'first' },
];

describe('PluginTable', () => {
  it('makes a header a sort button only where sorting does something', async () => {
    await renderInTestApp(
      <PluginTable<Row>
        title="Things"
        options={TABLE_OPTIONS}
        data={rows}
        columns={[
          { title: 'Name', field: 'name' },
          { title: 'State', render: row => <b>{row.state}</b> },
          {
            title: 'Ordered',
            render: row => row.id,
            customSort: (a, b) => a.id.localeCompare(b.id),
          },
        ]}
      />,
    );

    const header = (title: string) =>
      screen.getByRole('columnheader', { name: title });
    // A rendered column compares nothing: no button, so none that only turns an arrow.
    expect(
      within(header('State')).queryByRole('button'),
    ).not.toBeInTheDocument();
    expect(within(header('Ordered')).getByRole('button')).toBeInTheDocument();

    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map(row => within(row).getAllByRole('cell')[0].textContent);
    expect(names()).toEqual(['beta', 'alpha']);
    await userEvent.click(within(header('Name')).getByRole('button'));
    expect(names()).toEqual(['alpha', 'beta']);
  });
});
