import { renderInTestApp } from '@backstage/frontend-test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { fireEvent, screen } from '@testing-library/react';
import { PersonName, personText, PrincipalName } from './PersonName';

const withEntityPages = {
  mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
};

describe('PersonName', () => {
  it("names a portal user by their catalog entity, linked to the user's page", async () => {
    await renderInTestApp(
      <PersonName name="user:default/jane.doe" />,
      withEntityPages,
    );

    expect(screen.getByRole('link', { name: 'jane.doe' })).toHaveAttribute(
      'href',
      '/catalog/default/user/jane.doe',
    );
    expect(screen.queryByText(/user:default/)).not.toBeInTheDocument();
  });

  it('names a user without a link in an app without entity pages', async () => {
    await renderInTestApp(<PersonName name="user:default/jane.doe" />);

    expect(screen.getByText('jane.doe')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows an email or a service account as it is', async () => {
    await renderInTestApp(
      <>
        <p>
          <PersonName name="ada@example.com" />
        </p>
        <p>
          <PersonName name="Local runner" />
        </p>
      </>,
      withEntityPages,
    );

    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Local runner')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('says who someone is in plain text for labels and messages', () => {
    expect(personText('user:default/jane.doe')).toBe('jane.doe');
    expect(personText('user:team-a/jane.doe')).toBe('team-a/jane.doe');
    expect(personText('ada@example.com')).toBe('ada@example.com');
  });
});

describe('PrincipalName', () => {
  const id = '01a230b4-9f72-75f5-95ab-881d2a66ff1e';

  it('shows a placeholder, not the id, until the names are read', async () => {
    await renderInTestApp(
      <p>
        started by <PrincipalName id={id} loaded={false} inText />
      </p>,
    );

    expect(screen.getByLabelText('Loading the name')).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(id))).not.toBeInTheDocument();
  });

  it('names the account, with its id on hover', async () => {
    await renderInTestApp(<PrincipalName id={id} name="Demo data" loaded />);

    expect(screen.getByText('Demo data')).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(id))).not.toBeInTheDocument();
    fireEvent.mouseOver(screen.getByText('Demo data'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(`ID ${id}`);
  });

  it('calls an id no one has any more an unknown account, not by its id', async () => {
    await renderInTestApp(
      <p>
        started by <PrincipalName id={id} loaded inText />
      </p>,
    );

    expect(screen.getByText('an unknown account')).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(id))).not.toBeInTheDocument();
  });
});
