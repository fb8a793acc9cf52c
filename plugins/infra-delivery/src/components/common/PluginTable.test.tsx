import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import Button from '@material-ui/core/Button';
import { ButtonBaseActions } from '@material-ui/core/ButtonBase';
import { useState } from 'react';
import { PluginTable } from './PluginTable';
import { TableCard } from './TableCard';
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

/** The outline an element shows, in px: 0 without one. */
function outlineWidth(element: Element): number {
  const style = getComputedStyle(element);
  return style.outlineStyle === 'solid' ? parseFloat(style.outlineWidth) : 0;
}

describe('PluginTable', () => {
  // MUI marks the button that has keyboard focus through its `focusVisible` action, as it does
  // on Tab in a browser (jsdom does not say which focus is a keyboard's).
  it("shows keyboard focus on a row's outlined button and a card's button as a ring", async () => {
    const actions: Record<string, ButtonBaseActions | null> = {};
    await renderInTestApp(
      <TableCard
        title="API keys"
        action={
          <Button
            variant="contained"
            action={action => {
              actions.create = action;
            }}
          >
            Create API key
          </Button>
        }
      >
        <PluginTable<Row>
          options={TABLE_OPTIONS}
          data={rows}
          columns={[
            { title: 'Name', field: 'name' },
            {
              title: 'Actions',
              render: row => (
                <Button
                  variant="outlined"
                  size="small"
                  action={action => {
                    actions[row.name] = action;
                  }}
                >
                  Revoke {row.name}
                </Button>
              ),
            },
          ]}
        />
      </TableCard>,
    );
    const revoke = screen.getByRole('button', { name: 'Revoke beta' });
    expect(outlineWidth(revoke)).toBe(0);

    act(() => actions.beta?.focusVisible());
    expect(revoke).toHaveFocus();
    await waitFor(() => expect(outlineWidth(revoke)).toBe(2));

    act(() => actions.create?.focusVisible());
    const create = screen.getByRole('button', { name: 'Create API key' });
    await waitFor(() => expect(outlineWidth(create)).toBe(2));
  });

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

  // material-table compares a table's columns at each render, functions by identity, and takes
  // new ones for changed columns: it works its columns out again and, in a development build,
  // warns "The columns provided to material table are static, but contain functions…". Columns
  // written inline, whose cells read the page, were new at every render. The check that
  // setupTests.ts makes after each case fails this one when material-table gets new functions.
  it('hands material-table the same columns while only their functions change, its cells reading the latest', async () => {
    const Page = () => {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button onClick={() => setRenders(renders + 1)}>Render again</button>
          <PluginTable<Row>
            title="Things"
            options={TABLE_OPTIONS}
            data={rows}
            columns={[
              {
                title: 'Name',
                field: 'name',
                cellStyle: (_, row) => ({
                  fontWeight: row.state === 'first' ? 700 : 400,
                }),
              },
              { title: 'Renders', render: row => `${row.name}: ${renders}` },
            ]}
          />
        </>
      );
    };
    await renderInTestApp(<Page />);
    expect(screen.getByText('alpha: 0')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Render again' }));
    expect(await screen.findByText('alpha: 1')).toBeInTheDocument();
    expect(screen.getByText('beta: 1')).toBeInTheDocument();
    expect(screen.getByText('alpha')).toHaveStyle({ fontWeight: 700 });
  });

  // A column fewer is other columns. material-table renders the columns before once more
  // after they changed: their functions called the new columns' by position, and the last
  // one called a column that was gone.
  it('shows the columns of the latest render when one goes', async () => {
    const Page = () => {
      const [narrow, setNarrow] = useState(false);
      return (
        <>
          <button onClick={() => setNarrow(true)}>Narrow</button>
          <PluginTable<Row>
            title="Things"
            options={TABLE_OPTIONS}
            data={rows}
            columns={[
              { title: 'Name', field: 'name' },
              ...(narrow
                ? []
                : [{ title: 'State', render: (row: Row) => row.state }]),
              { title: 'Id', render: (row: Row) => `#${row.id}` },
            ]}
          />
        </>
      );
    };
    await renderInTestApp(<Page />);
    expect(screen.getByText('second')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Narrow' }));
    await waitFor(() =>
      expect(
        screen.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Name', 'Id']),
    );
    expect(screen.queryByText('second')).not.toBeInTheDocument();
    expect(screen.getByText('#1')).toBeInTheDocument();
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
