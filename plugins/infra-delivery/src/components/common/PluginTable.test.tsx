import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { useState } from 'react';
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

  it('keeps its rows mounted when the page renders again with new empty content', async () => {
    /** A row's own state, as a row's open confirmation dialog has. */
    const Counter = () => {
      const [count, setCount] = useState(0);
      return (
        <button onClick={() => setCount(count + 1)}>Pressed {count}</button>
      );
    };
    const Page = () => {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button onClick={() => setRenders(renders + 1)}>Render again</button>
          <PluginTable<Row>
            title="Things"
            options={TABLE_OPTIONS}
            data={rows.slice(0, 1)}
            columns={[{ title: 'Name', render: () => <Counter /> }]}
            emptyContent={<p>Nothing yet ({renders})</p>}
          />
        </>
      );
    };
    await renderInTestApp(<Page />);

    await userEvent.click(screen.getByRole('button', { name: 'Pressed 0' }));
    await userEvent.click(screen.getByRole('button', { name: 'Render again' }));

    expect(
      screen.getByRole('button', { name: 'Pressed 1' }),
    ).toBeInTheDocument();
  });

  it('shows the empty content of the latest render', async () => {
    const Page = () => {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button onClick={() => setRenders(renders + 1)}>Render again</button>
          <PluginTable<Row>
            title="Things"
            options={TABLE_OPTIONS}
            data={[]}
            columns={[{ title: 'Name', field: 'name' }]}
            emptyContent={<p>Nothing yet ({renders})</p>}
          />
        </>
      );
    };
    await renderInTestApp(<Page />);
    expect(screen.getByText('Nothing yet (0)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Render again' }));

    expect(screen.getByText('Nothing yet (1)')).toBeInTheDocument();
  });
});
