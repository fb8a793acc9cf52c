import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import {
  baseUrl,
  errorResponse,
  fakeSignals,
  list,
  now,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  deploymentFixture as deployment,
  serviceEntity as entity,
} from '../../__testUtils__/deploymentFixtures';
import { afterUnderWayMessageMinimum } from '../../__testUtils__/actionMessageClock';
import { DeploymentsContent } from './DeploymentsContent';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';
import { IDLE_POLL_MS } from '../common/useLivePolling';

describe('DeploymentsContent', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const annotated = entity({
    'infra-delivery.io/ecs-service': 'payments/payments-api',
  });

  /**
   * The tab over `history`, where a rollback to d1 starts `rollback` at the top of the history;
   * returns the signals that announce its changes.
   */
  const renderRollingBack = async (
    history: Deployment[],
    rollback: Deployment,
  ) => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(history)),
      ),
      http.post(`${baseUrl}/deployments/d1/rollback`, () => {
        history.unshift(rollback);
        return HttpResponse.json({ data: rollback }, { status: 201 });
      }),
    );
    const signals = fakeSignals();
    await renderEntityContent(<DeploymentsContent />, annotated, {
      signals: signals.api,
    });
    return signals;
  };

  it('asks for the ECS service annotation', async () => {
    await renderEntityContent(<DeploymentsContent />, entity());
    expect(
      await screen.findByText(/infra-delivery.io\/ecs-service/),
    ).toBeInTheDocument();
  });

  it('rolls back to an earlier successful deployment after showing what changes', async () => {
    const history = [
      deployment('d3', 'SUCCEEDED', 'app:3'),
      deployment('d2', 'FAILED', 'app:2'),
      deployment('d1', 'SUCCEEDED', 'app:1'),
    ];
    const rollback: Deployment = {
      ...deployment('d4', 'PENDING', 'app:1'),
      description: 'Rollback of payments-api to deployment d1',
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd1',
    };
    const signals = await renderRollingBack(history, rollback);

    expect(await screen.findByText('Deploy app:3')).toBeInTheDocument();
    // The service by its name, its cluster under it.
    expect(screen.getByText('Deployments of payments-api')).toBeInTheDocument();
    expect(
      screen.getByText('ECS service payments-api in cluster payments'),
    ).toBeInTheDocument();
    const listRequest = requestsTo('GET', '/deployments')[0];
    expect(listRequest.query.get('clusterRef')).toBe('payments');
    expect(listRequest.query.get('serviceRef')).toBe('payments-api');
    // Only the earlier successful deployment offers a rollback, named after its row; the
    // running one says why not.
    const buttons = screen.getAllByRole('button', { name: /^Roll back/ });
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName('Roll back to “Deploy app:1”');
    expect(buttons[0]).toHaveTextContent(/^Roll back$/);
    const running = screen.getByText('Running now').closest('tr')!;
    expect(within(running).getByText('Deploy app:3')).toBeInTheDocument();

    await userEvent.click(buttons[0]);
    const dialog = await screen.findByRole('dialog', {
      name: 'Roll back to “Deploy app:1”?',
    });
    expect(
      within(dialog).getByText(/containerDefinitions\.app\.image/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/- "app:3"/)).toBeInTheDocument();
    expect(within(dialog).getByText(/\+ "app:1"/)).toBeInTheDocument();
    expect(requestsTo('POST', '/deployments/d1/rollback')).toHaveLength(0);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Roll back' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d1/rollback')).toHaveLength(1),
    );
    // It says what started, names the rollback after its release, and opens it on request.
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent('A rollback to “Deploy app:1” started.');
    expect(
      await screen.findByText('Rollback to “Deploy app:1”'),
    ).toBeInTheDocument();
    await userEvent.click(
      within(message).getByRole('button', { name: 'Show it' }),
    );
    expect(
      await screen.findByRole('heading', {
        name: 'Rollback to “Deploy app:1”',
      }),
    ).toBeInTheDocument();

    // The rollback succeeds: the message says so (not "started" above its Succeeded), and
    // goes once it has stood long enough to be read.
    history[0] = { ...rollback, status: 'SUCCEEDED' };
    const deploymentReads = requestsTo('GET', '/deployments').length;
    const announceSucceeded = () =>
      act(() =>
        signals.announce('infra-delivery:deployments', {
          deploymentId: rollback.id,
          status: 'SUCCEEDED',
          clusterName: 'payments',
          serviceName: 'payments-api',
        }),
      );
    announceSucceeded();
    await waitFor(() =>
      expect(requestsTo('GET', '/deployments').length).toBeGreaterThan(
        deploymentReads,
      ),
    );
    // (Found by its text: the open drawer hides the page from the accessibility tree.)
    expect(
      await screen.findByText('A rollback to “Deploy app:1” succeeded.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByText('A rollback to “Deploy app:1” started.'),
    ).not.toBeInTheDocument();
    const restoreClock = afterUnderWayMessageMinimum();
    announceSucceeded();
    await waitFor(() =>
      expect(
        screen.queryByText('A rollback to “Deploy app:1” succeeded.'),
      ).not.toBeInTheDocument(),
    );
    restoreClock();
  });

  it('says in its message that a rollback started here failed, and keeps saying it', async () => {
    const history = [
      deployment('d3', 'SUCCEEDED', 'app:3'),
      deployment('d1', 'SUCCEEDED', 'app:1'),
    ];
    const rollback: Deployment = {
      ...deployment('d4', 'IN_PROGRESS', 'app:1'),
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd1',
    };
    const signals = await renderRollingBack(history, rollback);
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Roll back to “Deploy app:1”',
      }),
    );
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Roll back',
      }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A rollback to “Deploy app:1” started.',
    );

    history[0] = { ...rollback, status: 'FAILED' };
    const restoreClock = afterUnderWayMessageMinimum();
    act(() =>
      signals.announce('infra-delivery:deployments', {
        deploymentId: rollback.id,
        status: 'FAILED',
        clusterName: 'payments',
        serviceName: 'payments-api',
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'A rollback to “Deploy app:1” failed.',
      ),
    );
    // Still there after the time a message about work under way stands at least.
    expect(screen.getByRole('status')).toHaveTextContent('failed');
    restoreClock();
  });

  it('offers no rollback to the release that runs again after a rollback', async () => {
    const first = deployment('d1', 'SUCCEEDED', 'app:1');
    const rolledBack: Deployment = {
      ...deployment('d5', 'SUCCEEDED', 'app:1'),
      description: 'Rollback of payments-api to deployment d1',
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd1',
      data: { ...first.data },
    };
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([rolledBack, deployment('d3', 'SUCCEEDED', 'app:3'), first]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(await screen.findByText('Deploy app:3')).toBeInTheDocument();

    // Only app:3 can be rolled back to; the first deployment's release is the one running.
    const [button] = screen.getAllByRole('button', { name: /^Roll back/ });
    expect(screen.getAllByRole('button', { name: /^Roll back/ })).toHaveLength(
      1,
    );
    expect(button).toHaveAccessibleName('Roll back to “Deploy app:3”');
    const same = screen
      .getByText('Running now: deployed again since')
      .closest('tr')!;
    expect(within(same).getByText('Deploy app:1')).toBeInTheDocument();
  });

  it('names each row’s Roll back after the release it goes back to, keeping the visible label', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d3', 'SUCCEEDED', 'app:3'),
            deployment('d2', 'SUCCEEDED', 'app:2'),
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Deploy app:3');

    // Two "Roll back" buttons told a screen reader nothing of where each goes.
    for (const release of ['Deploy app:2', 'Deploy app:1']) {
      const button = screen.getByRole('button', {
        name: `Roll back to “${release}”`,
      });
      expect(button).toHaveTextContent(/^Roll back$/);
      expect(within(button.closest('tr')!).getByText(release)).toBeVisible();
    }
  });

  it('offers a rollback to each release once, from the release’s own row', async () => {
    // Release 1.0.0 was rolled back to once; Release 1.2.0 runs now.
    const first = {
      ...deployment('d1', 'SUCCEEDED', 'app:1'),
      description: 'Release 1.0.0',
    };
    const rollback: Deployment = {
      ...deployment('d3', 'SUCCEEDED', 'app:1'),
      description: 'Rollback of payments-api to “Release 1.0.0” (payments:1)',
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd1',
      data: { ...first.data },
    };
    // The same release deployed again by hand, under another name.
    const again: Deployment = {
      ...deployment('d2', 'SUCCEEDED', 'app:2'),
      description: 'Release 1.1.0',
    };
    const sameAsFirst: Deployment = {
      ...deployment('d5', 'SUCCEEDED', 'app:1'),
      description: 'Hotfix redeploy',
      data: { ...first.data },
    };
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            {
              ...deployment('d6', 'SUCCEEDED', 'app:6'),
              description: 'Release 1.2.0',
            },
            sameAsFirst,
            rollback,
            again,
            first,
          ]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Release 1.2.0');

    // Not the running release, and Release 1.0.0 once, not on its rollback and its redeploy too.
    expect(
      screen
        .getAllByRole('button', { name: /^Roll back/ })
        .map(button => button.getAttribute('aria-label')),
    ).toEqual(['Roll back to “Release 1.1.0”', 'Roll back to “Release 1.0.0”']);
    const button = screen.getByRole('button', {
      name: 'Roll back to “Release 1.0.0”',
    });
    expect(
      within(button.closest('tr')!).getByText('Release 1.0.0'),
    ).toBeInTheDocument();
    // The redeploy under another name says where its release is offered.
    const redeploy = screen.getByText('Hotfix redeploy').closest('tr')!;
    expect(redeploy).toHaveTextContent('Same release as “Release 1.0.0” below');
    const rollbackRow = screen
      .getByText('Rollback to “Release 1.0.0”')
      .closest('tr')!;
    expect(rollbackRow).not.toHaveTextContent('Same release as');
  });

  it('names rollbacks after their release without nesting quotes', async () => {
    const first = {
      ...deployment('d1', 'SUCCEEDED', 'app:1'),
      description: '"Release 1.1.0"',
    };
    const rollback: Deployment = {
      ...deployment('d3', 'SUCCEEDED', 'app:1'),
      description: 'Rollback of payments-api to “"Release 1.1.0"” (payments:1)',
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd1',
      data: { ...first.data },
    };
    // A rollback to the rollback: the same release again.
    const rollbackOfRollback: Deployment = {
      ...deployment('d5', 'IN_PROGRESS', 'app:1'),
      description:
        'Rollback of payments-api to “Rollback of payments-api to …” (payments:1)',
      triggerSource: 'ROLLBACK',
      rollbackToDeploymentId: 'd3',
      data: { ...first.data, events: [] },
    };
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            rollbackOfRollback,
            deployment('d4', 'SUCCEEDED', 'app:4'),
            rollback,
            deployment('d2', 'SUCCEEDED', 'app:2'),
            first,
          ]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Deploy app:4');

    // The release's own quotes are not doubled, and a rollback of a rollback is named after
    // the release, not "Rollback to “Rollback to “…””".
    expect(screen.getByText('Release 1.1.0')).toBeInTheDocument();
    expect(
      screen.getAllByRole('button', { name: /^Details of Rollback/ }),
    ).toHaveLength(2);
    for (const name of screen.getAllByRole('button', {
      name: /^Details of Rollback/,
    })) {
      expect(name).toHaveTextContent(/^Rollback to “Release 1\.1\.0”$/);
    }
    // Actions quote a rollback's title with single quotes inside double ones.
    expect(
      screen.getByRole('button', {
        name: 'Cancel “Rollback to ‘Release 1.1.0’”',
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Roll back to “Release 1.1.0”' }),
    ).toBeInTheDocument();
  });

  it('keeps each row to five columns: the facts go under the name and the start', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            {
              ...deployment('d7', 'SUCCEEDED', 'app:7', {
                strategy: 'blue_green',
                detectedVia: 'EVENT_BUS',
              }),
              startedAt: '2026-01-15T09:58:00.000Z',
              completedAt: '2026-01-15T09:59:30.000Z',
            },
          ]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);

    const name = await screen.findByRole('button', {
      name: 'Details of Deploy app:7',
    });
    const row = name.closest('tr')!;
    expect(row).toHaveTextContent(
      'payments:7 · blue_green · started outside the portal',
    );
    expect(row).toHaveTextContent('took 1m 30s');
    expect(
      screen.getAllByRole('columnheader').map(header => header.textContent),
    ).toEqual(['Deployment', 'Status', 'Progress', 'Started', 'Actions']);

    await userEvent.click(name);
    expect(
      await screen.findByRole('heading', { name: 'Deploy app:7' }),
    ).toBeInTheDocument();
  });

  it('folds Started, then Progress, into other columns where the table is narrow, so that it does not scroll sideways', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            {
              ...deployment('d7', 'SUCCEEDED', 'app:7', {
                events: [
                  {
                    stepCode: 'DONE',
                    currentStep: 4,
                    totalSteps: 4,
                    message: 'Deployment completed',
                    startedAt: now,
                  },
                ],
              }),
              startedAt: '2026-01-15T09:58:00.000Z',
              completedAt: '2026-01-15T09:59:30.000Z',
            },
          ]),
        ),
      ),
    );
    const headers = () =>
      screen.getAllByRole('columnheader').map(header => header.textContent);
    const cellsOf = async () =>
      within(
        (
          await screen.findByRole('button', { name: 'Details of Deploy app:7' })
        ).closest('tr')!,
      ).getAllByRole('cell');

    // A 900 px window beside the sidebar: five columns were 680 px in 640.
    let restore = fakeContainerWidth(640);
    try {
      const { unmount } = await renderEntityContent(
        <DeploymentsContent />,
        annotated,
      );
      const [name] = await cellsOf();
      expect(headers()).toEqual([
        'Deployment',
        'Status',
        'Progress',
        'Actions',
      ]);
      expect(name).toHaveTextContent('took 1m 30s');
      unmount();
    } finally {
      restore();
    }

    // A 700 px window: its progress goes under its status.
    restore = fakeContainerWidth(440);
    try {
      await renderEntityContent(<DeploymentsContent />, annotated);
      const [name, status] = await cellsOf();
      expect(headers()).toEqual(['Deployment', 'Status', 'Actions']);
      expect(name).toHaveTextContent('took 1m 30s');
      expect(status).toHaveTextContent('Deployment completed');
    } finally {
      restore();
    }
  });

  it('offers to continue a deployment paused at a hook', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d5', 'IN_PROGRESS', 'app:5', {
              events: [
                {
                  stepCode: 'PAUSED',
                  currentStep: 2,
                  totalSteps: 4,
                  hookId: 'hook-1',
                  lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
                  startedAt: now,
                },
              ],
            }),
          ]),
        ),
      ),
      http.post(`${baseUrl}/deployments/d5/continue`, () =>
        HttpResponse.json({ data: deployment('d5', 'IN_PROGRESS', 'app:5') }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(
      await screen.findByText(/2\/4 · Post test traffic shift/),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Continue “Deploy app:5”' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Continue “Deploy app:5”?',
    });
    expect(
      within(dialog).getByText('The deployment goes on to its next stage.'),
    ).toBeInTheDocument();
    expect(requestsTo('POST', '/deployments/d5/continue')).toHaveLength(0);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Continue' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d5/continue')).toHaveLength(1),
    );
  });
  it('cancels a deployment in progress after confirmation', async () => {
    const history = [
      deployment('d3', 'IN_PROGRESS', 'app:3'),
      deployment('d2', 'SUCCEEDED', 'app:2'),
    ];
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(history)),
      ),
      http.post(`${baseUrl}/deployments/d3/cancel`, () =>
        HttpResponse.json({
          data: {
            ...history[0],
            data: { ...history[0].data, revertRequestedAt: now },
          },
        }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Deploy app:3');

    await userEvent.click(
      screen.getByRole('button', { name: 'Cancel “Deploy app:3”' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Cancel “Deploy app:3”?',
    });
    expect(
      within(dialog).getByText(
        'ECS stops it and restores the revision that ran before; it ends Cancelled once that runs again.',
      ),
    ).toBeInTheDocument();
    expect(requestsTo('POST', '/deployments/d3/cancel')).toHaveLength(0);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel the deployment' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d3/cancel')).toHaveLength(1),
    );
  });

  /**
   * A failed deployment d3 whose redeploy the service answers with `answer` (the first
   * redeploy's number, from 1) or, without one, with the new deployment d4; its Deploy again
   * dialog, open.
   */
  async function openDeployAgain(
    answer?: (nth: number) => Response | undefined,
  ) {
    const failed = deployment('d3', 'FAILED', 'app:3');
    const again: Deployment = {
      ...deployment('d4', 'PENDING', 'app:3'),
      redeployOfDeploymentId: 'd3',
    };
    const history = [failed, deployment('d2', 'SUCCEEDED', 'app:2')];
    let answered = 0;
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(history)),
      ),
      http.post(`${baseUrl}/deployments/d3/redeploy`, () => {
        answered += 1;
        const special = answer?.(answered);
        if (special) return special;
        history.unshift(again);
        return HttpResponse.json({ data: again }, { status: 201 });
      }),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Deploy app:3');

    await userEvent.click(
      screen.getByRole('button', { name: 'Deploy again “Deploy app:3”' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Deploy “Deploy app:3” again?',
    });
    return {
      dialog,
      confirm: within(dialog).getByRole('button', { name: 'Deploy again' }),
    };
  }

  it('deploys the release of a failed deployment again', async () => {
    const { confirm } = await openDeployAgain();
    await userEvent.click(confirm);
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d3/redeploy')).toHaveLength(1),
    );
    // While the new deployment is in flight, the failed one waits for it.
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Deploy again “Deploy app:3”' }),
      ).toBeDisabled(),
    );
  });

  it('sends the same Idempotency-Key when Deploy again is pressed again after the service failed', async () => {
    const { dialog, confirm } = await openDeployAgain(nth =>
      nth === 1
        ? errorResponse(503, {
            code: 'InfraDelivery:Database:UNAVAILABLE',
            message:
              "The service's database cannot be reached (ECONNRESET); try again in 5 s",
            requestId: 'req-503',
          })
        : undefined,
    );
    await userEvent.click(confirm);
    await within(dialog).findByText(/database cannot be reached/);
    await userEvent.click(confirm);
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d3/redeploy')).toHaveLength(2),
    );

    const keys = requestsTo('POST', '/deployments/d3/redeploy').map(post =>
      post.headers.get('idempotency-key'),
    );
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('keeps Roll back and Deploy again in their rows while another deployment is under way, saying why they wait', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d4', 'IN_PROGRESS', 'app:4'),
            deployment('d3', 'FAILED', 'app:3'),
            deployment('d2', 'SUCCEEDED', 'app:2'),
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await screen.findByText('Deploy app:4');

    const reason =
      '“Deploy app:4” is under way: a service takes one deployment at a time. This is possible once it ends.';
    for (const name of [
      'Roll back to “Deploy app:1”',
      'Deploy again “Deploy app:3”',
    ]) {
      const button = screen.getByRole('button', { name });
      // Offered and refused with SERVICE_BUSY after its confirmation, it was a dead end.
      expect(button).toBeDisabled();
      await userEvent.hover(button.parentElement!);
      expect(
        await screen.findByRole('tooltip', { name: reason }),
      ).toBeInTheDocument();
      await userEvent.unhover(button.parentElement!);
    }
    expect(requestsTo('POST', '/deployments/d1/rollback')).toHaveLength(0);
  });

  it('shows a progress bar while the history loads', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/deployments`, async () => {
        await answered;
        return HttpResponse.json(list([]));
      }),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(await screen.findByRole('progressbar')).toBeInTheDocument();
    answer();
    expect(
      await screen.findByText('No deployments of this service yet.'),
    ).toBeInTheDocument();
    // And how one comes to be: Deploy, a pipeline's step or the API.
    expect(
      screen.getByText(/The first one starts with Deploy/),
    ).toHaveTextContent(
      "a whole task definition, where the entity's annotations say the service runs), from a pipeline run's deploy step (container.deploy) or through the API (POST /deployments)",
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the ErrorBody message and request id when the history fails', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Deployment:FORBIDDEN',
          message: 'You may not read the deployments of this organization',
          requestId: 'req-deployments-403',
        }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(
      await screen.findByText(
        'You may not read the deployments of this organization',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'InfraDelivery:Deployment:FORBIDDEN · Request id: req-deployments-403',
      ),
    ).toBeInTheDocument();
  });

  it('opens a deployment on what its release changed and what happened to it', async () => {
    const failed = deployment('d2', 'FAILED', 'app:2', {
      strategy: 'rolling',
      previousTaskDefinition: {
        ref: 'arn:aws:ecs:eu-west-1:111122223333:task-definition/payments:1',
        revision: 1,
        definition: {
          family: 'payments',
          cpu: '256',
          memory: '512',
          containerDefinitions: [
            {
              name: 'app',
              image: 'app:1',
              environment: [
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'REGION', value: 'eu-west-1' },
              ],
              portMappings: [{ containerPort: 8080 }],
            },
          ],
        },
      },
      deployedTaskDefinition: {
        ref: 'arn:aws:ecs:eu-west-1:111122223333:task-definition/payments:2',
        revision: 2,
        definition: {
          family: 'payments',
          cpu: '512',
          memory: '512',
          containerDefinitions: [
            {
              name: 'app',
              image: 'app:2',
              // Reordered, one value changed: only that value reads as a change.
              environment: [
                { name: 'REGION', value: 'eu-west-1' },
                { name: 'LOG_LEVEL', value: 'debug' },
              ],
              portMappings: [{ containerPort: 9090 }],
            },
          ],
        },
      },
      events: [
        {
          stepCode: 'INIT',
          currentStep: 1,
          totalSteps: 4,
          lifecycleStage: 'RECONCILE_SERVICE',
          trafficPhase: 'standby',
          startedAt: now,
        },
      ],
    });
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            {
              ...failed,
              error: {
                code: 'InfraDelivery:Deployment:TASKS_FAILED',
                message: 'Tasks stopped: essential container exited',
                requestId: 'req-deploy-7',
              },
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        HttpResponse.json({
          data: list([
            {
              id: 'e1',
              eventId: 'evt-1',
              source: 'aws.ecs',
              kind: 'ECS_TASK',
              detailType: 'ECS Task State Change',
              eventTime: '2026-01-15T10:01:00.000Z',
              data: { type: 'ECS_TASK', lastStatus: 'STOPPED' },
            },
          ]),
        }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(await screen.findByText('Deploy app:2')).toBeInTheDocument();
    expect(screen.queryByText(/Task definition/)).not.toBeInTheDocument();

    await userEvent.click(
      screen.getAllByRole('button', {
        name: /^Details of /,
      })[0],
    );

    expect(
      await screen.findByText('Task definition · payments:1 → payments:2'),
    ).toBeInTheDocument();
    const diff = screen.getByText(/containerDefinitions\.app\.image/);
    expect(diff.textContent).toContain(
      'containerDefinitions.app.image\n  - "app:1"\n  + "app:2"',
    );
    expect(diff.textContent).toContain(
      'containerDefinitions.app.environment.LOG_LEVEL.value\n  - "info"\n  + "debug"',
    );
    expect(diff.textContent).toContain(
      'containerDefinitions.app.portMappings.0.containerPort\n  - 8080\n  + 9090',
    );
    expect(diff.textContent).toContain('cpu\n  - "256"\n  + "512"');
    expect(diff.textContent).not.toContain('REGION');
    expect(diff.textContent).not.toContain('memory');

    // Why it failed is read without opening anything; the code and request id on opening.
    expect(
      screen.getByText(/Tasks stopped: essential container exited/),
    ).toBeVisible();
    const code = screen.getByText(
      'InfraDelivery:Deployment:TASKS_FAILED · Request id: req-deploy-7',
    );
    expect(code).not.toBeVisible();
    await userEvent.click(
      screen.getByText(/Tasks stopped: essential container exited/),
    );
    await waitFor(() => expect(code).toBeVisible());
    expect(
      screen.getByText(/Init · 1\/4 · Reconcile service · standby traffic/),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        /2026-01-15T10:01:00.000Z · ECS Task State Change · STOPPED/,
      ),
    ).toBeInTheDocument();
    expect(
      requestsTo('GET', '/infrastructure-events')[0].query.get('deploymentId'),
    ).toBe('d2');
  });

  it('compares with the previous successful deployment when the cloud did not report the replaced release', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d3', 'SUCCEEDED', 'app:3'),
            deployment('d2', 'FAILED', 'app:2'),
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        HttpResponse.json({ data: list([]) }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await userEvent.click(
      (
        await screen.findAllByRole('button', {
          name: /^Details of /,
        })
      )[0],
    );
    expect(
      await screen.findByText('Task definition · payments:1 → payments:3'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Compared with the release of “Deploy app:1”, the previous successful deployment.',
      ),
    ).toBeInTheDocument();
    const diff = screen.getByText(/containerDefinitions\.app\.image/);
    expect(diff.textContent).toContain('- "app:1"\n  + "app:3"');
  });

  it('leads from a deployment to the pipeline run whose deploy step started it', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            {
              ...deployment('d2', 'FAILED', 'app:2'),
              triggerSource: 'PIPELINE',
              pipelineRunId: 'run-7',
            },
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        HttpResponse.json({ data: list([]) }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of Deploy app:2' }),
    );
    // Why it was deployed (the commit, the approval) is on the run's page.
    expect(
      await screen.findByRole('link', { name: 'open the run' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-7');

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(
      screen.getByRole('button', { name: 'Details of Deploy app:1' }),
    );
    await screen.findByText(/First release of the service/);
    expect(
      screen.queryByRole('link', { name: 'open the run' }),
    ).not.toBeInTheDocument();
  });

  it('says so when a deployment is the first release of its service', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list([deployment('d1', 'SUCCEEDED', 'app:1')])),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        HttpResponse.json({ data: list([]) }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await userEvent.click(
      (
        await screen.findAllByRole('button', {
          name: /^Details of /,
        })
      )[0],
    );
    expect(
      await screen.findByText(/First release of the service/),
    ).toBeInTheDocument();
    expect(await screen.findByText('None received.')).toBeInTheDocument();
  });

  it('opens the deployment a link names, and closes it on Close', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d2', 'SUCCEEDED', 'app:2'),
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        HttpResponse.json({ data: list([]) }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated, {
      initialRouteEntries: ['/?deployment=d1'],
    });
    // d1 is the service's first release: its drawer says so, unasked.
    expect(
      await screen.findByText(/First release of the service/),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(
        screen.queryByText(/First release of the service/),
      ).not.toBeInTheDocument(),
    );
  });

  it('shows the ErrorBody when the infrastructure events of a deployment fail', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list([deployment('d1', 'SUCCEEDED', 'app:1')])),
      ),
      http.get(`${baseUrl}/infrastructure-events`, () =>
        errorResponse(500, {
          code: 'InfraDelivery:InfrastructureEvent:INTERNAL',
          message: 'The event store does not answer',
          requestId: 'req-events-500',
        }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    await userEvent.click(
      (
        await screen.findAllByRole('button', {
          name: /^Details of /,
        })
      )[0],
    );
    expect(
      await screen.findByText('The event store does not answer'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Request id: req-events-500/)).toBeInTheDocument();
  });

  it('follows a deployment as the backend announces its changes', async () => {
    let status: Deployment['status'] = 'IN_PROGRESS';
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list([deployment('d6', status, 'app:6')])),
      ),
    );
    const signals = fakeSignals();
    await renderEntityContent(<DeploymentsContent />, annotated, {
      signals: signals.api,
    });
    expect(await screen.findByText('In progress')).toBeInTheDocument();
    const loads = requestsTo('GET', '/deployments').length;

    // A change of another service's deployment leaves this history alone.
    act(() =>
      signals.announce('infra-delivery:deployments', {
        deploymentId: 'other',
        status: 'SUCCEEDED',
        clusterName: 'payments',
        serviceName: 'billing-api',
      }),
    );
    status = 'SUCCEEDED';
    act(() =>
      signals.announce('infra-delivery:deployments', {
        deploymentId: 'd6',
        status: 'SUCCEEDED',
        clusterName: 'payments',
        serviceName: 'payments-api',
      }),
    );

    expect(await screen.findByText('Succeeded')).toBeInTheDocument();
    expect(requestsTo('GET', '/deployments')).toHaveLength(loads + 1);
  });
  describe('in an app without signals', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('re-reads an in-flight deployment every 15 seconds, and a finished history every half minute', async () => {
      jest.useFakeTimers({ advanceTimers: true });
      let status: Deployment['status'] = 'IN_PROGRESS';
      server.use(
        http.get(`${baseUrl}/deployments`, () =>
          HttpResponse.json(list([deployment('d7', status, 'app:7')])),
        ),
      );
      await renderEntityContent(<DeploymentsContent />, annotated);
      expect(await screen.findByText('In progress')).toBeInTheDocument();
      expect(requestsTo('GET', '/deployments')).toHaveLength(1);

      act(() => {
        jest.advanceTimersByTime(10_000);
      });
      expect(requestsTo('GET', '/deployments')).toHaveLength(1);

      status = 'SUCCEEDED';
      act(() => {
        jest.advanceTimersByTime(5_000);
      });
      expect(await screen.findByText('Succeeded')).toBeInTheDocument();
      expect(requestsTo('GET', '/deployments')).toHaveLength(2);

      act(() => {
        jest.advanceTimersByTime(IDLE_POLL_MS - 1_000);
      });
      expect(requestsTo('GET', '/deployments')).toHaveLength(2);
      act(() => {
        jest.advanceTimersByTime(1_000);
      });
      await waitFor(() =>
        expect(requestsTo('GET', '/deployments')).toHaveLength(3),
      );
    });
  });

  it('re-reads an in-flight deployment only as slowly as an idle one when signals announce the changes', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      server.use(
        http.get(`${baseUrl}/deployments`, () =>
          HttpResponse.json(list([deployment('d8', 'IN_PROGRESS', 'app:8')])),
        ),
      );
      await renderEntityContent(<DeploymentsContent />, annotated, {
        signals: fakeSignals().api,
      });
      expect(await screen.findByText('In progress')).toBeInTheDocument();
      act(() => {
        jest.advanceTimersByTime(IDLE_POLL_MS - 1_000);
      });
      expect(requestsTo('GET', '/deployments')).toHaveLength(1);
      act(() => {
        jest.advanceTimersByTime(1_000);
      });
      await waitFor(() =>
        expect(requestsTo('GET', '/deployments')).toHaveLength(2),
      );
    } finally {
      jest.useRealTimers();
    }
  });
});
