import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  list,
  now,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  ownerMembership,
  runnerServiceAccount,
} from '../../__testUtils__/organizationFixtures';
import { OrganizationSettingsPage } from './OrganizationSettingsPage';

const developer = {
  ...ownerMembership,
  id: 'm2',
  email: 'dev@example.com',
  role: 'MEMBER',
  userId: 'u2',
};
/** The caller. */
const me = { ...developer, id: 'm3', email: 'me@example.com', role: 'ADMIN' };
const otherAdmin = { ...me, id: 'm4', email: 'admin@example.com' };
const invitedAdmin = {
  ...otherAdmin,
  id: 'm5',
  email: 'new-admin@example.com',
  userId: undefined,
};
const adminAccount = {
  ...runnerServiceAccount,
  id: 'sa2',
  name: 'ops-bot',
  role: 'ADMIN',
};
const key = (id: string, name: string, ownerType: string, ownerId: string) => ({
  id,
  organizationId: 'o1',
  name,
  keySuffix: id,
  ownerType,
  ownerId,
  createdById: 'm1',
  createdAt: now,
  updatedAt: now,
});

// Five cards with their tables render: see OrganizationSettingsPage.test.tsx.
jest.setTimeout(60_000);

// A file of its own: the caller's role is the test server's, for every test of a file.
describe('OrganizationSettingsPage for an ADMIN', () => {
  const { server } = setupInfraDeliveryServer({ role: 'ADMIN' });

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/me`, () =>
        HttpResponse.json({
          data: {
            organizationId: 'o1',
            role: 'ADMIN',
            principalType: 'membership',
            membershipId: me.id,
          },
        }),
      ),
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          list([ownerMembership, developer, me, otherAdmin, invitedAdmin]),
        ),
      ),
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([runnerServiceAccount, adminAccount])),
      ),
      http.get(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          list([
            key('k1', 'owner laptop', 'MEMBERSHIP', ownerMembership.id),
            key('k2', 'my laptop', 'MEMBERSHIP', me.id),
            key('k3', 'ops key', 'SERVICE_ACCOUNT', adminAccount.id),
            key('k4', 'ci key', 'SERVICE_ACCOUNT', runnerServiceAccount.id),
          ]),
        ),
      ),
      http.get(`${baseUrl}/gitforge/self-hosted`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([]))),
    );
  });

  const renderPage = async () => {
    await renderInTestApp(<OrganizationSettingsPage />, {
      apis: [[infraDeliveryApiRef, client]],
    });
    await screen.findByText('ops key');
  };

  const card = (title: string) =>
    screen.getByText(title).closest('.MuiCard-root') as HTMLElement;

  const rowOf = async (scope: HTMLElement, text: string) =>
    (await within(scope).findAllByText(text))[0].closest('tr') as HTMLElement;

  /** The options a select offers once opened, closed again after. */
  const optionsOf = async (select: HTMLElement) => {
    await userEvent.click(select);
    const options = (await screen.findAllByRole('option')).map(
      option => option.textContent,
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('option')).not.toBeInTheDocument(),
    );
    return options;
  };

  /** Presses a card's header button; the dialog it opens. */
  const openDialog = async (button: string) => {
    await userEvent.click(screen.getByRole('button', { name: button }));
    return screen.findByRole('dialog');
  };

  const cancel = async (dialog: HTMLElement) => {
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  };

  it('invites only members and viewers', async () => {
    await renderPage();
    const dialog = await openDialog('Invite member');
    expect(
      await optionsOf(
        within(dialog).getByRole('button', { name: 'Role: Member' }),
      ),
    ).toEqual(['Member', 'Viewer']);
  });

  it('changes and removes members and viewers, but not admins or owners, saying why', async () => {
    await renderPage();
    const members = card('Members and invitations');

    const developerRow = await rowOf(members, 'dev@example.com');
    expect(
      await optionsOf(
        within(developerRow).getByRole('button', {
          name: 'Role of dev@example.com: Member',
        }),
      ),
    ).toEqual(['Member', 'Viewer']);
    expect(
      within(developerRow).getByRole('button', {
        name: 'Remove dev@example.com',
      }),
    ).toBeEnabled();

    for (const [email, role, says] of [
      [
        'admin@example.com',
        'Admin',
        'Only an owner changes or removes an admin',
      ],
      [
        'owner@example.com',
        'Owner',
        'Only an owner changes or removes an owner',
      ],
      [
        'new-admin@example.com',
        'Admin',
        'Only an owner changes or withdraws the invitation of an admin',
      ],
    ]) {
      const row = await rowOf(members, email);
      expect(
        within(row).getByRole('button', { name: `Role of ${email}: ${role}` }),
      ).toHaveAttribute('aria-disabled', 'true');
      expect(
        within(row).queryByRole('button', { name: /^(Remove|Withdraw)/ }),
      ).not.toBeInTheDocument();
      expect(within(row).getByText(says)).toBeInTheDocument();
    }
  });

  it('lets an admin step down or leave, as the service does', async () => {
    await renderPage();
    const ownRow = await rowOf(
      card('Members and invitations'),
      'me@example.com',
    );
    expect(
      await optionsOf(
        within(ownRow).getByRole('button', {
          name: 'Role of me@example.com: Admin',
        }),
      ),
    ).toEqual(['Admin', 'Member', 'Viewer']);
    expect(
      within(ownRow).getByRole('button', { name: 'Remove me@example.com' }),
    ).toBeEnabled();
  });

  it('creates and deletes member and viewer service accounts only', async () => {
    await renderPage();
    const dialog = await openDialog('Create service account');
    expect(
      await optionsOf(
        within(dialog).getByRole('button', { name: 'Role: Member' }),
      ),
    ).toEqual(['Member', 'Viewer']);
    await cancel(dialog);
    const accounts = card('Service accounts');
    expect(
      within(accounts).getByRole('button', { name: 'Delete ci-runner' }),
    ).toBeEnabled();
    const deleteAdmin = within(accounts).getByRole('button', {
      name: 'Delete ops-bot',
    });
    expect(deleteAdmin).toBeDisabled();
    await userEvent.hover(deleteAdmin.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Only an owner deletes an admin service account',
      }),
    ).toBeInTheDocument();
  });

  it('names a service account by its name, its id behind a copy button', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    await renderPage();
    const accounts = card('Service accounts');
    const copy = await within(accounts).findByRole('button', {
      name: 'Copy the ID of ci-runner',
    });
    const row = copy.closest('tr')!;
    expect(within(row).queryByText('sa1')).not.toBeInTheDocument();

    await userEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith('sa1');
    expect(
      await screen.findByRole('tooltip', { name: 'ID copied' }),
    ).toBeInTheDocument();
  });

  it('makes and revokes the keys of member service accounts and its own, not an owner’s or an admin account’s', async () => {
    await renderPage();
    const dialog = await openDialog('Create API key');
    expect(
      await optionsOf(within(dialog).getByRole('button', { name: /Me/ })),
    ).toEqual(['Me', 'ci-runner']);
    await cancel(dialog);
    const keys = card('API keys');

    for (const name of ['Revoke my laptop', 'Revoke ci key']) {
      expect(within(keys).getByRole('button', { name })).toBeEnabled();
    }
    for (const [name, reason] of [
      ['Revoke owner laptop', 'Only an owner revokes the keys of an owner'],
      [
        'Revoke ops key',
        'Only an owner revokes the keys of an admin service account',
      ],
    ]) {
      const revoke = await within(keys).findByRole('button', { name });
      expect(revoke).toBeDisabled();
      await userEvent.hover(revoke.parentElement!);
      expect(
        await screen.findByRole('tooltip', { name: reason }),
      ).toBeInTheDocument();
      await userEvent.unhover(revoke.parentElement!);
    }
  });
});
