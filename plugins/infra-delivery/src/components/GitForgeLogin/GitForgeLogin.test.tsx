import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  gitSelfHostedServer,
  errorResponse,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { CompleteGitForgeLogin } from './CompleteGitForgeLogin';
import { StartGitForgeLogin } from './StartGitForgeLogin';

const gitServer = gitSelfHostedServer({ loggedIn: true });

describe('self-hosted git server login pages', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const render = (element: JSX.Element) =>
    renderInTestApp(element, { apis: [[infraDeliveryApiRef, client]] });

  it('sends the browser to the authorization page the service gives', async () => {
    const authorizeUrl =
      'https://github.example.com/login/oauth/authorize?state=s';
    server.use(
      http.get(`${baseUrl}/gitforge/self-hosted/gs1/login-url`, () =>
        HttpResponse.json({
          data: { authorizeUrl, expiresAt: '2026-01-15T10:10:00.000Z' },
        }),
      ),
    );
    const navigate = jest.fn();
    await render(
      <StartGitForgeLogin gitSelfHostedServerId="gs1" navigate={navigate} />,
    );
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(authorizeUrl));
  });

  it('completes the login with what the server sent back and names the server', async () => {
    server.use(
      http.get(`${baseUrl}/gitforge/self-hosted/oauth/callback`, () =>
        HttpResponse.json({
          data: {
            gitSelfHostedServerId: 'gs1',
            loggedIn: true,
            scopes: ['read:org', 'repo'],
          },
        }),
      ),
      http.get(`${baseUrl}/gitforge/self-hosted/gs1`, () =>
        HttpResponse.json({ data: gitServer }),
      ),
    );
    await render(
      <CompleteGitForgeLogin
        search="?code=c0de&state=st4te"
        organizationPath="/infra-delivery/organization"
      />,
    );
    expect(
      await screen.findByText('Logged in to Corporate GitHub'),
    ).toBeInTheDocument();
    expect(screen.getByText(/read:org, repo/)).toBeInTheDocument();
    const [call] = requestsTo('GET', '/gitforge/self-hosted/oauth/callback');
    expect(Object.fromEntries(call.query)).toEqual({
      code: 'c0de',
      state: 'st4te',
    });
  });

  it('says so when the login was started by someone else', async () => {
    server.use(
      http.get(`${baseUrl}/gitforge/self-hosted/oauth/callback`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:GitSelfHostedLogin:STARTED_BY_SOMEONE_ELSE',
          message: 'This login was started by someone else',
          requestId: 'r1',
        }),
      ),
    );
    await render(
      <CompleteGitForgeLogin
        search="?code=c0de&state=foreign"
        organizationPath="/infra-delivery/organization"
      />,
    );
    expect(
      await screen.findByText('This login was started by someone else'),
    ).toBeInTheDocument();
    expect(screen.getByText(/The login did not complete/)).toBeInTheDocument();
    expect(
      screen.getByRole('link', {
        name: 'Start the login again from the self-hosted servers',
      }),
    ).toHaveAttribute('href', '/infra-delivery/organization');
  });
});
