import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  list,
  runner,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  ownerMembership,
  runnerServiceAccount,
} from '../../__testUtils__/organizationFixtures';
import { repository } from '../../__testUtils__/moduleFixtures';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';
import { OrganizationSettingsPage } from './OrganizationSettingsPage';

jest.setTimeout(60_000);

/** The card whose heading is `title`. */
const card = (title: string) =>
  screen.getByRole('heading', { name: title }).closest('.MuiCard-root')!;

describe('OrganizationSettingsPage layout', () => {
  const { server } = setupInfraDeliveryServer();

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
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([repository])),
      ),
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(list([runner({ runnerId: 'runner-ci-1' })])),
      ),
    );
  });

  const renderPage = async () => {
    await renderInTestApp(<OrganizationSettingsPage />, {
      apis: [[infraDeliveryApiRef, client]],
    });
    await screen.findAllByText('owner@example.com');
    await screen.findByText('runner-ci-1');
  };

  it('keeps the members card the height of its one member while it loads', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/memberships`, async () => {
        await answered;
        return HttpResponse.json(list([ownerMembership]));
      }),
    );
    await renderInTestApp(<OrganizationSettingsPage />, {
      apis: [[infraDeliveryApiRef, client]],
    });

    const loading = await screen.findByRole('progressbar', {
      name: 'Loading members',
    });
    // One grey row where the one member will be, not three that shrink to one.
    expect(loading.querySelectorAll('.MuiSkeleton-root')).toHaveLength(1);
    answer();
    expect(await screen.findAllByText('owner@example.com')).not.toHaveLength(0);
  });

  // As on the Modules page: the table spans its card, not a second box inset in it.
  it.each([
    'Members and invitations',
    'Service accounts',
    'API keys',
    'Runners',
    'Code sources',
    'Self-hosted git servers',
  ])('spans the table of %s across its card', async title => {
    await renderPage();
    const table = within(card(title) as HTMLElement).getByRole('table');
    expect(table.closest('.MuiCardContent-root')!.className).toMatch(
      /noPadding/,
    );
  });

  // Each card's one action is its header's button; what it creates is asked in a dialog,
  // where every field says what it is for.
  it.each([
    ['Members and invitations', 'Invite member', 'Invite a member'],
    ['Service accounts', 'Create service account', 'Create a service account'],
    ['API keys', 'Create API key', 'Create an API key'],
    [
      'Self-hosted git servers',
      'Register server',
      'Register a self-hosted git server',
    ],
  ])(
    'creates from the header of %s, in a dialog with help under each field',
    async (title, button, dialogTitle) => {
      await renderPage();
      const header = card(title).querySelector(
        '.MuiCardHeader-root',
      ) as HTMLElement;
      // No field on the page before the button is pressed.
      expect(
        within(card(title) as HTMLElement).queryByRole('textbox'),
      ).not.toBeInTheDocument();
      await userEvent.click(
        await within(header).findByRole('button', { name: button }),
      );
      const dialog = await screen.findByRole('dialog', { name: dialogTitle });
      for (const field of within(dialog).getAllByRole('textbox')) {
        expect(field).toHaveAccessibleDescription(/\w/);
      }
      await userEvent.click(
        within(dialog).getByRole('button', { name: 'Cancel' }),
      );
    },
  );

  it('folds the API keys into four columns where a narrow window leaves them under 700 px', async () => {
    server.use(
      http.get(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          list([
            {
              id: 'k1',
              organizationId: 'o1',
              name: 'Runner key',
              keySuffix: 'wUCZ',
              ownerType: 'SERVICE_ACCOUNT',
              ownerId: runnerServiceAccount.id,
              createdById: ownerMembership.id,
              createdAt: new Date().toISOString(),
              updatedAt: new Date().toISOString(),
            },
          ]),
        ),
      ),
    );
    // As the code sources' table: six columns wrapped every cell at 900 px.
    const restore = fakeContainerWidth(640);
    try {
      await renderPage();
      const keys = within(card('API keys') as HTMLElement);
      const row = (await keys.findByText('Runner key')).closest('tr')!;
      expect(
        keys.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Name', 'Owner', 'Expires', 'Actions']);
      // On one line: "Ends with" over "…wUCZ" beside a long key name at 800 px.
      expect(within(row).getByText('Ends with …wUCZ')).toHaveStyle({
        whiteSpace: 'nowrap',
      });
      expect(within(row).getByText('Never used')).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('says where to set the callback URL of a server in its dialog', async () => {
    await renderPage();
    expect(
      within(card('Self-hosted git servers') as HTMLElement).getByText(
        /No self-hosted git server is registered\. Register a GitHub Enterprise Server/,
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Register server' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      /OAuth app on the GitHub Enterprise Server whose callback URL is http:\/\/localhost(:\d+)?\/.*\/gitforge\/callback/,
    );
  });
});
