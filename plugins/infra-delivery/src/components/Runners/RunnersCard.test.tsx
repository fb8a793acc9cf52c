import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  configuredRunnerCommand,
  errorResponse,
  fakeSignals,
  list,
  pipelineRun,
  renderWithService,
  runner,
  setupInfraDeliveryServer,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { RunnersCard } from './RunnersCard';

const secondsAgo = (seconds: number) =>
  new Date(Date.now() - seconds * 1000).toISOString();

const online = runner({
  runnerId: 'runner-ci-1',
  hostname: 'build-host-1',
  version: '0.3.0',
  labels: ['linux', 'tofu'],
  status: 'ONLINE',
  currentStepExecutionId: 'step-apply-42',
  currentPipelineRunId: 'run-42',
  currentStepName: 'Apply',
});
const offline = runner({
  runnerId: 'runner-old',
  hostname: 'old-host',
  version: '0.2.0',
  status: 'OFFLINE',
});
const older = runner({ runnerId: 'runner-page-2', status: 'OFFLINE' });
/** The online runner free, asking for work every two seconds. */
const idle = {
  ...online,
  currentStepExecutionId: undefined,
  currentPipelineRunId: undefined,
  currentStepName: undefined,
  pollIntervalMs: 2000,
};

const serviceAccount = {
  id: 'sa-runner-1',
  organizationId: 'o1',
  name: 'Build runner',
  role: 'MEMBER',
  createdById: 'm1',
  createdAt: online.firstSeenAt,
  updatedAt: online.firstSeenAt,
};

/** Opens the card's Connect a runner dialog. */
async function openConnectDialog() {
  await userEvent.click(
    await screen.findByRole('button', { name: 'Connect a runner' }),
  );
  return screen.findByRole('dialog', { name: 'Connect a runner' });
}

const createTheKey = (dialog: HTMLElement) =>
  userEvent.click(
    within(dialog).getByRole('button', { name: 'Create the key' }),
  );

/** The Connect dialog's writes: the runner's service account, then its key (`key`). */
function serveConnect(name: string, key: string, existing: string[] = []) {
  return [
    // The accounts there are: the dialog offers a name none of them has.
    http.get(`${baseUrl}/service-accounts`, () =>
      HttpResponse.json(
        list(
          existing.map((n, i) => ({
            ...serviceAccount,
            id: `sa-${i}`,
            name: n,
          })),
        ),
      ),
    ),
    http.post(`${baseUrl}/service-accounts`, () =>
      HttpResponse.json({ data: serviceAccount }, { status: 201 }),
    ),
    http.post(`${baseUrl}/api-keys`, () =>
      HttpResponse.json(
        {
          data: {
            id: 'k-runner',
            organizationId: 'o1',
            name,
            keySuffix: 'Zz99',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: serviceAccount.id,
            createdById: 'm1',
            createdAt: online.firstSeenAt,
            updatedAt: online.firstSeenAt,
            key,
          },
        },
        { status: 201 },
      ),
    ),
  ];
}

describe('RunnersCard', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'ADMIN' });
  /** The card's reads of the runners (the Connect dialog reads the online ones besides). */
  const runnerRequests = () =>
    requestsTo('GET', '/runners').filter(r => !r.query.has('status'));

  /** runner-ci-1's row, once the name of the run it works on is read (the table then redraws). */
  async function workingRow(name = 'runner-ci-1') {
    await screen.findByRole('link', {
      name: 'Apply of Plan & apply · Network',
    });
    return screen.getByText(name).closest('tr')!;
  }

  // The run runner-ci-1 works on: an apply of the Network stack.
  beforeEach(() => {
    const network = stack({ id: 'stack-network', name: 'Network' });
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-42',
              pipelineId: network.changePipelineId,
              attachedEntityId: network.id,
              status: 'RUNNING',
            }),
          ]),
        ),
      ),
      http.get(`${baseUrl}/stacks`, () => HttpResponse.json(list([network]))),
    );
  });

  const serveRunners = (first = [online, offline]) =>
    server.use(
      http.get(`${baseUrl}/runners`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        return HttpResponse.json({
          data: cursor === 'page-2' ? [older] : first,
          meta: {
            limit: 20,
            nextCursor: cursor === 'page-2' ? null : 'page-2',
            totalCount: first.length + 1,
          },
        });
      }),
    );

  it('lists the runners by name with their status in words, id, host, version, labels, last contact and the step they work on', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            {
              ...online,
              serviceAccountName: 'Build hosts',
              lastSeenAt: secondsAgo(12),
            },
            offline,
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    // Named by its service account, what the admin called it when connecting it.
    const onlineRow = await workingRow('Build hosts');
    expect(within(onlineRow).getByText('Online')).toBeInTheDocument();
    expect(
      within(onlineRow).getByText(
        'runner-ci-1 · on build-host-1 · version 0.3.0',
      ),
    ).toBeInTheDocument();
    expect(within(onlineRow).getByText('linux')).toBeInTheDocument();
    expect(within(onlineRow).getByText('tofu')).toBeInTheDocument();
    // The step it works on, and the run's name, link to its run under the Infrastructure page.
    expect(
      within(onlineRow).getByRole('link', {
        name: 'Apply of Plan & apply · Network',
      }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-42');
    expect(
      requestsTo('GET', '/pipeline-runs').map(r => r.query.getAll('id')),
    ).toEqual([['run-42']]);
    // The clock runs on while a loaded machine renders, so "12" may have become
    // a later second; time.test.ts holds the wording to the exact second.
    const lastSeen = within(onlineRow).getByText(/^1\d seconds ago$/);
    expect(lastSeen).toHaveAttribute('title');
    expect(lastSeen.getAttribute('title')).not.toBe('');

    // Its account deleted: named by its id.
    const offlineRow = screen.getByText('runner-old').closest('tr')!;
    expect(
      within(offlineRow).getByText('on old-host · version 0.2.0'),
    ).toBeInTheDocument();
    expect(within(offlineRow).getByText('Offline')).toBeInTheDocument();
    expect(within(offlineRow).getByText('Idle')).toBeInTheDocument();
    expect(within(offlineRow).queryByRole('link')).not.toBeInTheDocument();
    expect(within(offlineRow).queryByText('Online')).not.toBeInTheDocument();
  });

  it('says Stopped, not Offline, of a runner that signed off', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            { ...offline, signedOffAt: secondsAgo(30) },
            { ...older, lastSeenAt: secondsAgo(120) },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    const stopped = (await screen.findByText('runner-old')).closest('tr')!;
    expect(within(stopped).getByText('Stopped')).toBeInTheDocument();
    expect(within(stopped).queryByText('Offline')).not.toBeInTheDocument();
    const gone = screen.getByText('runner-page-2').closest('tr')!;
    expect(within(gone).getByText('Offline')).toBeInTheDocument();
  });

  it('says Silent of a free runner that stopped asking for work, before it goes offline', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            // Killed 25 s ago: five of its 2 s polls missed, still inside the 60 s window.
            { ...idle, lastSeenAt: secondsAgo(25) },
            { ...idle, runnerId: 'runner-polling', lastSeenAt: secondsAgo(1) },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    const silent = (await screen.findByText('runner-ci-1')).closest('tr')!;
    expect(within(silent).getByText('Silent')).toBeInTheDocument();
    expect(within(silent).queryByText('Online')).not.toBeInTheDocument();
    expect(
      within(silent).getByText(
        'Idle, but no longer asks for work: it may have stopped (killed, or its host lost)',
      ),
    ).toBeInTheDocument();
    const polling = screen.getByText('runner-polling').closest('tr')!;
    expect(within(polling).getByText('Online')).toBeInTheDocument();
    expect(within(polling).getByText('Idle')).toBeInTheDocument();
  });

  it('says Silent of a free runner whose held claim dropped, when a run waiting for it says it may have stopped', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            // Killed 6 s ago while its claim was held (seen 8 s ago, well within the twenty
            // seconds of its sightings' rule): the run page says it may have stopped after 5 s.
            {
              ...idle,
              lastSeenAt: secondsAgo(8),
              claimDroppedAt: secondsAgo(6),
            },
            // Dropped a moment ago: it may yet ask again.
            {
              ...idle,
              runnerId: 'runner-blip',
              lastSeenAt: secondsAgo(3),
              claimDroppedAt: secondsAgo(1),
            },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    const silent = (await screen.findByText('runner-ci-1')).closest('tr')!;
    expect(within(silent).getByText('Silent')).toBeInTheDocument();
    expect(
      within(silent).getByText(
        'Idle, but no longer asks for work: it may have stopped (killed, or its host lost)',
      ),
    ).toBeInTheDocument();
    const blip = screen.getByText('runner-blip').closest('tr')!;
    expect(within(blip).getByText('Online')).toBeInTheDocument();
    expect(within(blip).getByText('Idle')).toBeInTheDocument();
  });

  it('says Silent of a runner that let half its step’s lease pass without a heartbeat', async () => {
    const lease = (renewedSecondsAgo: number) => ({
      runnerId: online.runnerId,
      renewedAt: secondsAgo(renewedSecondsAgo),
      expiresAt: secondsAgo(renewedSecondsAgo - 60),
    });
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            {
              ...online,
              lastSeenAt: secondsAgo(40),
              currentStepLease: lease(40),
            },
            {
              ...online,
              runnerId: 'runner-beating',
              lastSeenAt: secondsAgo(5),
              currentStepLease: { ...lease(5), runnerId: 'runner-beating' },
            },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    // Both work on the same run: once its name is read, the rows stay.
    await screen.findAllByRole('link', {
      name: 'Apply of Plan & apply · Network',
    });
    const silent = screen.getByText('runner-ci-1').closest('tr')!;
    expect(within(silent).getByText('Silent')).toBeInTheDocument();
    expect(
      within(silent).getByText(/^runner-ci-1 has sent no heartbeat for 4\ds$/),
    ).toBeInTheDocument();
    const beating = screen.getByText('runner-beating').closest('tr')!;
    expect(within(beating).getByText('Online')).toBeInTheDocument();
    expect(
      within(beating).queryByText(/has sent no heartbeat/),
    ).not.toBeInTheDocument();
    // When it was last heard from shows once, under Last seen, not again under its step.
    expect(within(beating).getByText(/^\d seconds ago$/)).toBeInTheDocument();
    expect(within(beating).queryByText(/heard from/)).not.toBeInTheDocument();
  });

  it('says a working runner was last seen when its last log lines came, once', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            {
              ...online,
              // Its last heartbeat 12 s ago, its latest log lines 2 s ago.
              lastSeenAt: secondsAgo(12),
              currentStepLease: {
                runnerId: online.runnerId,
                renewedAt: secondsAgo(12),
                expiresAt: secondsAgo(-48),
                lastHeardAt: secondsAgo(2),
              },
            },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    // Once the run's name is read, the row stays.
    await screen.findByRole('link', {
      name: 'Apply of Plan & apply · Network',
    });
    const row = screen.getByText('runner-ci-1').closest('tr')!;
    expect(within(row).getByText('Online')).toBeInTheDocument();
    // The fresher of the two, in the Last seen column; the step's cell names only the step.
    const lastSeen = within(row).getByText(/^\d seconds ago$/);
    const column = within(row)
      .getAllByRole('cell')
      .indexOf(lastSeen.closest('td')!);
    expect(
      within(screen.getAllByRole('row')[0]).getAllByRole('columnheader')[
        column
      ],
    ).toHaveTextContent('Last seen');
    expect(within(row).queryByText(/1\d seconds ago/)).not.toBeInTheDocument();
    expect(within(row).queryByText(/heard from/)).not.toBeInTheDocument();
  });

  it('tells a working runner busy streaming logs from one that has gone quiet', async () => {
    const lease = (renewedSecondsAgo: number, heardSecondsAgo: number) => ({
      runnerId: online.runnerId,
      renewedAt: secondsAgo(renewedSecondsAgo),
      expiresAt: secondsAgo(renewedSecondsAgo - 60),
      lastHeardAt: secondsAgo(heardSecondsAgo),
    });
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            {
              ...online,
              lastSeenAt: secondsAgo(3),
              currentStepLease: lease(40, 3),
            },
            {
              ...online,
              runnerId: 'runner-quiet',
              lastSeenAt: secondsAgo(40),
              currentStepLease: { ...lease(40, 40), runnerId: 'runner-quiet' },
            },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    await screen.findAllByRole('link', {
      name: 'Apply of Plan & apply · Network',
    });
    const busy = screen.getByText('runner-ci-1').closest('tr')!;
    expect(
      within(busy).getByText(
        /^runner-ci-1 has sent no heartbeat for \d+s; last heard from \d+s ago$/,
      ),
    ).toBeInTheDocument();
    const quiet = screen.getByText('runner-quiet').closest('tr')!;
    expect(
      within(quiet).getByText(
        /^runner-quiet has not been heard from for \d+s$/,
      ),
    ).toBeInTheDocument();
  });

  it('tells apart two processes started with the same runner id, on one host', async () => {
    const twin = (instanceId: string) =>
      runner({
        runnerId: 'twin',
        instanceId,
        serviceAccountName: 'Build hosts',
        hostname: 'build-host-1',
        version: '0.3.0',
        status: 'ONLINE',
      });
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            twin('3f2a9c1e-1111-4b7e-9d1a-0c2e5e0f1a01'),
            twin('77aa0b12-2222-4b7e-9d1a-0c2e5e0f1a02'),
            runner({
              runnerId: 'alone',
              instanceId: 'a1b2c3d4-3333-4b7e-9d1a-0c2e5e0f1a03',
              hostname: 'build-host-2',
              status: 'ONLINE',
            }),
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    expect(
      await screen.findByText(
        'twin · on build-host-1 · process 3f2a9c1e · version 0.3.0',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'twin · on build-host-1 · process 77aa0b12 · version 0.3.0',
      ),
    ).toBeInTheDocument();
    // A runner id with one process needs no more than its host.
    expect(screen.queryByText(/process a1b2c3d4/)).not.toBeInTheDocument();
  });

  it('lists the online runners first, then the most recently seen', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            { ...offline, lastSeenAt: secondsAgo(3600) },
            { ...older, lastSeenAt: secondsAgo(120) },
            { ...online, lastSeenAt: secondsAgo(2) },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    await workingRow();
    const rows = screen.getAllByRole('row').slice(1);
    expect(
      rows.map(row => within(row).getByText(/^runner-/).textContent),
    ).toEqual(['runner-ci-1', 'runner-page-2', 'runner-old']);
  });

  it('keeps online runners in their rows as their sightings are written', async () => {
    // Two processes of one runner id: the one seen last was listed first, and the rows swapped
    // every ten seconds as each one's sighting was written.
    const first = {
      ...idle,
      instanceId: 'a1a1a1a1-first',
      firstSeenAt: secondsAgo(300),
    };
    const second = {
      ...online,
      instanceId: 'b2b2b2b2-second',
      firstSeenAt: secondsAgo(200),
    };
    let seenLast: Runner = first;
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list(
            [first, second].map(r => ({
              ...r,
              lastSeenAt: secondsAgo(r === seenLast ? 1 : 9),
            })),
          ),
        ),
      ),
    );
    const order = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map(row => within(row).getByText(/process/).textContent);
    const view = renderWithService(<RunnersCard />);
    await screen.findByText(/process a1a1a1a1/);
    const before = order();
    expect(before[0]).toMatch(/process a1a1a1a1/);
    view.unmount();
    seenLast = second;
    renderWithService(<RunnersCard />);
    await screen.findByText(/process a1a1a1a1/);
    expect(order()).toEqual(before);
  });

  it('says that a runner whose API key was revoked during its step cannot report, and who revoked it', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([
            {
              ...online,
              status: 'OFFLINE',
              offlineCause: 'KEY_REVOKED',
              offlineBy: 'guest',
            },
          ]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    const row = await workingRow();
    expect(row).toHaveTextContent(
      'API key revoked by guest during Apply of Plan & apply · Network',
    );
    expect(row).not.toHaveTextContent('Stopped reporting');
  });

  it('says that an offline runner stopped reporting during its step, not that it works on it', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([{ ...online, status: 'OFFLINE', lastSeenAt: secondsAgo(90) }]),
        ),
      ),
    );
    renderWithService(<RunnersCard />);

    const row = await workingRow();
    expect(
      within(row).getByRole('link', {
        name: 'Apply of Plan & apply · Network',
      }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-42');
    expect(row).toHaveTextContent(
      'Stopped reporting during Apply of Plan & apply · Network',
    );
  });

  it('names its progress bar while the runners load, for a screen reader', async () => {
    let answer!: () => void;
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/runners`, async () => {
        await answered;
        return HttpResponse.json(list([online]));
      }),
    );
    renderWithService(<RunnersCard />);

    expect(
      await screen.findByRole('progressbar', { name: 'Loading runners' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByText(/No runner has connected yet/),
    ).not.toBeInTheDocument();
    answer();
    expect(await workingRow()).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('pages through the runners with the cursor the service gives', async () => {
    serveRunners();
    renderWithService(<RunnersCard />);

    expect(await screen.findByText('Runners 1–2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(runnerRequests()[0].query.has('cursor')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    await waitFor(() =>
      expect(screen.getByText('runner-page-2')).toBeInTheDocument(),
    );
    expect(screen.queryByText('runner-ci-1')).not.toBeInTheDocument();
    expect(screen.getByText('Runners 21–21 of 3')).toBeInTheDocument();
    expect(runnerRequests()[1].query.get('cursor')).toBe('page-2');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await workingRow()).toBeInTheDocument();
    expect(runnerRequests()[2].query.has('cursor')).toBe(false);
  });

  it('reads the runners again when a run changes', async () => {
    serveRunners();
    const signals = fakeSignals();
    renderWithService(<RunnersCard />, { signals: signals.api });
    await screen.findByText('runner-ci-1');
    const loads = runnerRequests().length;

    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-1' }),
    );

    await waitFor(() => expect(runnerRequests()).toHaveLength(loads + 1));
  });

  it('says so when no runner has connected, and offers to connect one', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([]))),
    );
    renderWithService(<RunnersCard />);

    expect(
      await screen.findByText(/No runner has connected yet/),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Connect a runner' }),
    ).toBeInTheDocument();
  });

  it('says why Create the key is greyed', async () => {
    serveRunners();
    renderWithService(<RunnersCard />);
    await screen.findByText('runner-ci-1');
    const dialog = await openConnectDialog();
    await userEvent.clear(within(dialog).getByLabelText('Name'));

    const create = within(dialog).getByRole('button', {
      name: 'Create the key',
    });
    expect(create).toBeDisabled();
    await userEvent.hover(create.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: 'Fill in first: Name.' }),
    ).toBeInTheDocument();
  });

  it('connects a runner: a MEMBER service account, a key it owns, and the command to start it', async () => {
    serveRunners();
    server.use(...serveConnect('Build runner', 'idk_runnersecret9876'));
    renderWithService(<RunnersCard />, {
      config: {
        infraDelivery: { runners: { command: configuredRunnerCommand } },
      },
    });
    await screen.findByText('runner-ci-1');

    const dialog = await openConnectDialog();
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Runner');
    await userEvent.clear(name);
    // Enter in the name creates the key, as the button does.
    await userEvent.type(name, 'Build runner{Enter}');

    const command = await within(dialog).findByLabelText(
      'Command that starts a runner',
    );
    expect(command).toHaveValue(
      `INFRA_DELIVERY_RUNNER_TOKEN=idk_runnersecret9876 ${configuredRunnerCommand} --url ${baseUrl} --iac-binary tofu`,
    );
    // A runner machine with Terraform rather than OpenTofu.
    await userEvent.click(
      within(dialog).getByRole('radio', { name: 'Terraform' }),
    );
    expect(command).toHaveValue(
      `INFRA_DELIVERY_RUNNER_TOKEN=idk_runnersecret9876 ${configuredRunnerCommand} --url ${baseUrl} --iac-binary terraform`,
    );
    expect(
      within(dialog).getByRole('button', { name: 'Copy the command' }),
    ).toBeInTheDocument();
    expect(requestsTo('POST', '/service-accounts')[0].body).toEqual({
      data: { name: 'Build runner', role: 'MEMBER' },
    });
    expect(requestsTo('POST', '/api-keys')[0].body).toEqual({
      data: {
        name: 'Build runner',
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: serviceAccount.id,
      },
    });

    // The key is in the command only this once: Escape does not close the dialog.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    const loads = runnerRequests().length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(runnerRequests().length).toBeGreaterThan(loads));
    expect(
      screen.queryByDisplayValue(/idk_runnersecret9876/),
    ).not.toBeInTheDocument();
  });

  it('offers a name no service account has, and says beside the name when another has it', async () => {
    serveRunners();
    server.use(
      // Taken meanwhile, by someone else.
      http.post(`${baseUrl}/service-accounts`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:ServiceAccount:NAME_TAKEN',
          message: 'A service account named "Runner 3" exists already',
          requestId: 'req-1',
        }),
      ),
      ...serveConnect('Runner 3', 'idk_x', ['Runner', 'Runner 2']),
    );
    renderWithService(<RunnersCard />);
    const dialog = await openConnectDialog();

    const name = within(dialog).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveValue('Runner 3'));
    await createTheKey(dialog);

    expect(
      await within(dialog).findByText('In use: choose another name'),
    ).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(requestsTo('POST', '/api-keys')).toHaveLength(0);
  });

  it('uses the default runner command when none is configured', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([]))),
      ...serveConnect('Runner', 'idk_other'),
    );
    renderWithService(<RunnersCard />);
    const dialog = await openConnectDialog();
    await createTheKey(dialog);
    expect(
      await within(dialog).findByLabelText('Command that starts a runner'),
    ).toHaveValue(
      `INFRA_DELIVERY_RUNNER_TOKEN=idk_other npx @infra-delivery/runner --url ${baseUrl} --iac-binary tofu`,
    );
  });
  it('waits in the Connect dialog for the new runner to ask for work, and says when it has', async () => {
    // Online: another account's runner at first, then one with the new key.
    let connected = false;
    const arrived = runner({
      runnerId: 'build-host-7',
      hostname: 'ci-7.example.com',
      serviceAccountId: serviceAccount.id,
      serviceAccountName: 'Runner',
    });
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(list(connected ? [online, arrived] : [online])),
      ),
      ...serveConnect('Runner', 'idk_arrival'),
    );
    renderWithService(<RunnersCard />);
    const dialog = await openConnectDialog();
    await createTheKey(dialog);

    expect(
      await within(dialog).findByText(
        'Waiting for the runner to connect: it shows here once it asks for work.',
      ),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        requestsTo('GET', '/runners').filter(
          r => r.query.get('status') === 'ONLINE',
        ),
      ).not.toHaveLength(0),
    );

    connected = true;
    expect(
      await within(dialog).findByText(
        'Runner is connected (build-host-7 on ci-7.example.com): it takes the next step queued for a runner.',
        undefined,
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
  });
});
