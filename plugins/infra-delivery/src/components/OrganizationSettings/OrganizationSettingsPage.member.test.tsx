import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  list,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  ownerMembership,
  runnerServiceAccount,
} from '../../__testUtils__/organizationFixtures';
import { repository } from '../../__testUtils__/moduleFixtures';
import { OrganizationSettingsPage } from './OrganizationSettingsPage';

// Five cards with their tables render: see OrganizationSettingsPage.test.tsx.
jest.setTimeout(60_000);

// A file of its own: the caller's role is the test server's, for every test of a file.
describe('OrganizationSettingsPage for a MEMBER', () => {
  const { server } = setupInfraDeliveryServer({ role: 'MEMBER' });

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(list([ownerMembership])),
      ),
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([runnerServiceAccount])),
      ),
      http.get(`${baseUrl}/api-keys`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/gitforge/self-hosted`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([repository])),
      ),
    );
  });

  const card = (title: string) =>
    screen.getByText(title).closest('.MuiCard-root') as HTMLElement;

  it('offers only what a MEMBER may do: no invitations, roles, removals or service accounts', async () => {
    await renderInTestApp(<OrganizationSettingsPage />, {
      apis: [[infraDeliveryApiRef, client]],
    });
    await screen.findAllByText('owner@example.com');
    await screen.findByText('ci-runner');

    const members = card('Members and invitations');
    expect(
      await within(members).findByText(
        'An organization admin invites members and changes their roles.',
      ),
    ).toBeInTheDocument();
    expect(within(members).queryByLabelText('Email')).not.toBeInTheDocument();
    for (const name of [/^Invite/, /^Remove/, /^Role of/]) {
      expect(
        within(members).queryByRole('button', { name }),
      ).not.toBeInTheDocument();
    }
    expect(within(members).getByText('Owner')).toBeInTheDocument();

    const accounts = card('Service accounts');
    expect(
      await within(accounts).findByText(
        'An organization admin creates and deletes service accounts.',
      ),
    ).toBeInTheDocument();
    for (const name of [/^Create/, /^Delete/]) {
      expect(
        within(accounts).queryByRole('button', { name }),
      ).not.toBeInTheDocument();
    }

    // Connecting repositories is a MEMBER's: what modules and stacks are made of.
    const sources = card('Code sources');
    expect(
      await within(sources).findByRole('button', {
        name: 'Verify acme/modules',
      }),
    ).toBeInTheDocument();
    expect(
      within(sources).getByRole('button', { name: 'Remove acme/modules' }),
    ).toBeInTheDocument();

    // A MEMBER creates keys for themself only.
    await userEvent.click(
      within(card('API keys')).getByRole('button', { name: 'Create API key' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /Me/ }));
    const options = await screen.findAllByRole('option');
    expect(options.map(option => option.textContent)).toEqual(['Me']);
    await userEvent.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('option')).not.toBeInTheDocument(),
    );
  });
});
