import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  errorResponse,
  list,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { repository } from '../../__testUtils__/moduleFixtures';
import { CodeSourcesCard } from './CodeSourcesCard';

const connected: CodeSource = {
  ...repository,
  id: 'cs-9',
  repoName: 'acme/infrastructure',
  repoUrl: 'https://github.com/acme/infrastructure',
  defaultBranch: 'trunk',
  auth: { kind: 'installation', forgeInstallationId: '12345678' },
};

/** The text said under a field, which names it as its description. */
const saidUnder = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby')!);

describe('CodeSourcesCard: connecting a repository', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  const openDialog = async () => {
    await renderWithService(<CodeSourcesCard />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Connect repository' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Connect a repository',
    });
    return {
      dialog,
      repository: within(dialog).getByRole('textbox', {
        name: /Repository address/,
      }),
      installation: within(dialog).getByRole('textbox', {
        name: /GitHub App installation/,
      }),
      connect: within(dialog).getByRole('button', { name: 'Connect' }),
    };
  };

  it('connects a repository through the installation whose settings address was pasted, and lists it', async () => {
    let sources: CodeSource[] = [];
    server.use(
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list(sources)),
      ),
      http.post(`${baseUrl}/code-sources`, () => {
        sources = [connected];
        return HttpResponse.json({ data: connected }, { status: 201 });
      }),
    );
    const form = await openDialog();
    expect(form.connect).toBeDisabled();

    await userEvent.type(
      form.repository,
      'https://github.com/acme/infrastructure',
    );
    await userEvent.type(
      form.installation,
      'https://github.com/organizations/acme/settings/installations/12345678',
    );
    await userEvent.click(form.connect);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'acme/infrastructure is connected; its default branch is trunk.',
    );
    expect(requestsTo('POST', '/code-sources')[0].body).toEqual({
      data: {
        forgeInstallationId: '12345678',
        repoUrl: 'https://github.com/acme/infrastructure',
        type: 'HOSTED_FORGE',
      },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      await screen.findByRole('link', { name: /^acme\/infrastructure/ }),
    ).toBeInTheDocument();
  });

  it('says beside a field what it needs before asking the service', async () => {
    server.use(
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
    );
    const form = await openDialog();

    await userEvent.type(form.repository, 'github.com/acme/infrastructure');
    await userEvent.type(form.installation, 'acme');

    expect(form.repository).toHaveAttribute('aria-invalid', 'true');
    expect(saidUnder(form.installation)).toHaveTextContent(
      'the numeric id of a GitHub App installation',
    );
    expect(form.connect).toBeDisabled();
    await userEvent.type(form.installation, '{Enter}');
    expect(requestsTo('POST', '/code-sources')).toHaveLength(0);
  });

  it.each([
    [
      'a host without a GitHub App',
      422,
      'InfraDelivery:ForgeIntegration:NOT_CONFIGURED',
      'No GitHub App is configured for git.example.com in integrations.github',
      'repository',
    ],
    [
      'a repository connected already',
      409,
      'InfraDelivery:CodeSource:ALREADY_CONNECTED',
      'https://git.example.com/acme/infrastructure is connected already',
      'repository',
    ],
    [
      'an installation GitHub does not know',
      422,
      'InfraDelivery:ForgeInstallation:NOT_FOUND',
      'GitHub App installation 42 was not found on git.example.com; it was removed or belongs to another App',
      'installation',
    ],
  ] as const)(
    'says the refusal of %s beside its field',
    async (_, status, code, message, field) => {
      server.use(
        http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
        http.post(`${baseUrl}/code-sources`, () =>
          errorResponse(status, { code, message, requestId: 'r1' }),
        ),
      );
      const form = await openDialog();
      await userEvent.type(
        form.repository,
        'https://git.example.com/acme/infrastructure',
      );
      await userEvent.type(form.installation, '42{Enter}');

      await waitFor(() =>
        expect(form[field]).toHaveAttribute('aria-invalid', 'true'),
      );
      expect(saidUnder(form[field])).toHaveTextContent(message);
      // Said once, where it is; the dialog stays with what was typed.
      expect(screen.queryByText(code)).not.toBeInTheDocument();
      expect(form.installation).toHaveValue('42');
    },
  );

  it('shows any other refusal in a panel', async () => {
    server.use(
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
      http.post(`${baseUrl}/code-sources`, () =>
        errorResponse(503, {
          code: 'InfraDelivery:Forge:UNAVAILABLE',
          message: 'github.com could not be reached: timeout',
          requestId: 'r2',
        }),
      ),
    );
    const form = await openDialog();
    await userEvent.type(
      form.repository,
      'https://github.com/acme/infrastructure',
    );
    await userEvent.type(form.installation, '42');
    await userEvent.click(form.connect);

    expect(
      await within(form.dialog).findByText(
        /The repository could not be connected/,
      ),
    ).toBeInTheDocument();
    expect(
      within(form.dialog).getByText('github.com could not be reached: timeout'),
    ).toBeInTheDocument();
  });
});
