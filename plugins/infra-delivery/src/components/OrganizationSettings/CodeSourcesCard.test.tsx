import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  errorResponse,
  list,
  now,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { repository } from '../../__testUtils__/moduleFixtures';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';
import { ActionMessageScope } from '../common/ActionMessage';
import { CodeSourcesCard } from './CodeSourcesCard';

const reached: CodeSource = { ...repository, accessCheckedAt: now };
const lost: CodeSource = {
  ...repository,
  id: 'cs-2',
  repoName: 'acme/network',
  repoUrl: 'https://github.com/acme/network',
  defaultBranch: 'trunk',
  accessLost: true,
  auth: { kind: 'installation', forgeInstallationId: '77' },
};

// As on the Organization page: one action's outcome at a time.
const renderCard = () =>
  renderWithService(
    <ActionMessageScope>
      <CodeSourcesCard />
    </ActionMessageScope>,
  );

const rowOf = (name: string) =>
  screen.getByText(name).closest('tr') as HTMLElement;

describe('CodeSourcesCard', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  const serve = (sources: CodeSource[]) =>
    server.use(
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list(sources)),
      ),
    );

  it('lists each repository, linked to its address, with its default branch and whether the installation reaches it', async () => {
    serve([
      reached,
      lost,
      { ...reached, id: 'cs-3', repoName: 'acme/odd', repoUrl: 'git@x:a/b' },
    ]);
    await renderCard();

    expect(
      await screen.findByRole('link', { name: /^acme\/modules/ }),
    ).toHaveAttribute('href', 'https://github.com/acme/modules');
    const reachedRow = rowOf('acme/modules');
    expect(within(reachedRow).getByText('main')).toBeInTheDocument();
    // Its header on one line: two over "main" at 1,440 px.
    expect(
      screen.getByRole('columnheader', { name: 'Default branch' }),
    ).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(within(reachedRow).getByText('Reachable')).toBeInTheDocument();
    expect(within(reachedRow).getByText(/^Verified/)).toBeInTheDocument();
    expect(
      within(reachedRow).getByText('Private · installation 42'),
    ).toBeInTheDocument();

    const lostRow = rowOf('acme/network');
    expect(within(lostRow).getByText('trunk')).toBeInTheDocument();
    expect(within(lostRow).getByText('Access lost')).toBeInTheDocument();
    expect(
      within(lostRow).getByText('Installation 77 no longer reaches it'),
    ).toBeInTheDocument();
    // An address that is not a web page is not a link.
    expect(
      screen.queryByRole('link', { name: /^acme\/odd/ }),
    ).not.toBeInTheDocument();
    expect(screen.getByText('acme/odd')).toBeInTheDocument();
  });

  it('folds into three columns where a narrow window leaves it under 700 px', async () => {
    serve([reached]);
    const restore = fakeContainerWidth(640);
    try {
      await renderCard();
      await screen.findByRole('link', { name: /^acme\/modules/ });
      // Five columns ran past the card's edge at 900 px, Verify and Remove cut off.
      expect(
        screen.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Repository', 'Status', 'Actions']);
      const row = rowOf('acme/modules');
      expect(
        within(row).getByText('Private · installation 42 · branch main'),
      ).toBeInTheDocument();
      expect(within(row).getByText(/^Connected/)).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('says so when no repository is connected', async () => {
    serve([]);
    await renderCard();
    expect(
      await screen.findByText(/^No repository is connected yet/),
    ).toBeInTheDocument();
  });

  it('verifies a repository and says what the service found', async () => {
    serve([reached, lost]);
    server.use(
      http.post(`${baseUrl}/code-sources/cs-1/verify`, () =>
        HttpResponse.json({ data: { ...reached, defaultBranch: 'develop' } }),
      ),
      http.post(`${baseUrl}/code-sources/cs-2/verify`, () =>
        HttpResponse.json({ data: lost }),
      ),
    );
    await renderCard();

    await userEvent.click(
      await screen.findByRole('button', { name: 'Verify acme/modules' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'acme/modules is reachable; its default branch is develop.',
    );
    expect(requestsTo('POST', '/code-sources/cs-1/verify')).toHaveLength(1);

    await userEvent.click(
      screen.getByRole('button', { name: 'Verify acme/network' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'GitHub App installation 77 no longer reaches acme/network',
      ),
    );
    // One outcome at a time: the earlier one went.
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('shows why a repository could not be verified', async () => {
    serve([reached]);
    server.use(
      http.post(`${baseUrl}/code-sources/cs-1/verify`, () =>
        errorResponse(503, {
          code: 'InfraDelivery:Forge:UNAVAILABLE',
          message: 'github.com could not be reached: timeout',
          requestId: 'r1',
        }),
      ),
    );
    await renderCard();

    await userEvent.click(
      await screen.findByRole('button', { name: 'Verify acme/modules' }),
    );
    expect(
      await screen.findByText(/acme\/modules could not be verified/),
    ).toBeInTheDocument();
    expect(
      screen.getByText('github.com could not be reached: timeout'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Verify acme/modules' }),
    ).toBeEnabled();
  });

  it('removes a repository only after confirmation', async () => {
    let sources = [reached, lost];
    server.use(
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list(sources)),
      ),
      http.delete(`${baseUrl}/code-sources/cs-2`, () => {
        sources = [reached];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await renderCard();

    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove acme/network' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Remove acme/network?',
    });
    expect(requestsTo('DELETE', '/code-sources/cs-2')).toHaveLength(0);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Remove' }),
    );

    expect(await screen.findByRole('status')).toHaveTextContent(
      'acme/network is disconnected.',
    );
    expect(requestsTo('DELETE', '/code-sources/cs-2')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByText('acme/network')).not.toBeInTheDocument(),
    );
  });

  it('shows the service’s refusal to remove a repository that modules or stacks still use', async () => {
    serve([reached]);
    server.use(
      http.delete(`${baseUrl}/code-sources/cs-1`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:CodeSource:IN_USE',
          message:
            'Module definitions or stacks still use this code source; delete them first',
          requestId: 'r2',
        }),
      ),
    );
    await renderCard();

    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove acme/modules' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Remove' }),
    );
    expect(
      await within(dialog).findByText(
        'Module definitions or stacks still use this code source; delete them first',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('acme/modules')).toBeInTheDocument();
  });
});
