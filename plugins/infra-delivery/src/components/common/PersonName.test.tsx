import { renderInTestApp } from '@backstage/frontend-test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { screen } from '@testing-library/react';
import { PersonName, personText } from './PersonName';

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
