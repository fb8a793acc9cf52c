import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { AddressInfo } from 'node:net';
import {
  InfraDeliveryClient,
  RunnerCheckout,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Runner } from './Runner';
import {
  FAKE_IAC,
  networkRepository,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
  startService,
} from './__testUtils__/serviceWorld';

jest.setTimeout(60_000);

const TOKEN = 'ghs_runnerCheckoutTokenThatMustNotLeak0000';
const REPOSITORY = 'acme/network-infra';

/**
 * The service hands a checkout only to runs a GitHub webhook started (the backend's tests
 * cover that); here the runner's client adds one to every claim, as the service would for such
 * a run, pointing at a local repository.
 */
function clientClaiming(
  baseUrl: string,
  key: string,
  checkout: () => RunnerCheckout,
) {
  return new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: async (input, init) => {
      const response = await fetch(input, {
        ...init,
        headers: { ...init?.headers, authorization: `Bearer ${key}` },
      });
      if (!String(input).endsWith('/runner/claims') || response.status !== 200)
        return response;
      const body = await response.json();
      const wanted = checkout();
      body.data.checkout = wanted;
      body.data.pipelineRun.gitSource = {
        codeSourceId: '00000000-0000-4000-8000-000000000001',
        repository: REPOSITORY,
        repoUrl: 'https://github.com/acme/network-infra',
        branch: 'main',
        commit: { sha: wanted.sha },
        webhookDeliveryId: 'delivery-1',
      };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
}

describe('the reference runner checking out the commit of a git-triggered run', () => {
  let baseUrl: string;
  let workRoot: string;
  let sourceRoot: string;

  beforeAll(async () => {
    baseUrl = await startService();
  });

  beforeEach(() => {
    ({ workRoot, sourceRoot } = runnerDirectories('checkout'));
    process.env.FAKE_IAC_PLAN = path.join(
      PLAN_FIXTURES,
      'terraform-compliance__test_issue_522.plan.json',
    );
    delete process.env.FAKE_IAC_FAIL;
  });

  function runner(
    client: InfraDeliveryClient,
    logs: string[],
    options: { checkout?: boolean } = {},
  ) {
    return new Runner(
      {
        url: baseUrl,
        token: 'unused',
        runnerId: 'checkout-runner',
        iacBinary: FAKE_IAC,
        workRoot,
        sourceRoot,
        checkout: options.checkout ?? true,
        pollIntervalMs: 10,
        waitSeconds: 0,
        once: true,
        labels: [],
        hostname: 'checkout-host.example.com',
      },
      client,
      message => logs.push(message),
    );
  }

  async function stepLogs(
    owner: Awaited<ReturnType<typeof organizationWithStack>>['owner'],
    runId: string,
    index = 0,
  ) {
    const steps = await owner.call('listStepExecutions', {
      params: { id: runId },
    });
    const logs = await owner.call('listStepExecutionLogs', {
      params: { id: steps.data[index].id },
    });
    return logs.data.map(line => line.text);
  }

  it('plans the claimed commit, not the other commit nor the source root, and reuses the checkout for the apply', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const repository = networkRepository('checkout');
    const client = clientClaiming(baseUrl, runnerKey, () => ({
      repoUrl: repository.url,
      sha: repository.first,
      token: TOKEN,
      tokenExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
    }));
    const runnerLogs: string[] = [];
    const run = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });

    await runner(client, runnerLogs).run();
    const workDir = path.join(workRoot, stack.id);
    expect(fs.readFileSync(path.join(workDir, 'main.tf'), 'utf8')).toBe(
      '# first commit\n',
    );
    expect(fs.existsSync(path.join(workDir, 'old.tf'))).toBe(true);
    const planLogs = await stepLogs(owner, run.data.id);
    expect(planLogs[1]).toBe(
      `Checked out ${REPOSITORY}@${repository.first.slice(0, 7)}`,
    );
    expect(planLogs).toContain('Plan: 5 to add, 1 to change, 2 to destroy.');
    expect(
      (await owner.call('getPipelineRun', { params: { id: run.data.id } })).data
        .status,
    ).toBe('WAITING_FOR_APPROVAL');

    // The apply of the same commit uses the checkout on disk: the repository is gone.
    fs.rmSync(repository.dir, { recursive: true, force: true });
    await owner.call('approvePipelineRun', {
      params: { id: run.data.id },
      body: { data: {} },
    });
    await runner(client, runnerLogs).run();
    expect(
      (await owner.call('getPipelineRun', { params: { id: run.data.id } })).data
        .status,
    ).toBe('SUCCEEDED');
    const steps = await owner.call('listStepExecutions', {
      params: { id: run.data.id },
    });
    const applyIndex = steps.data.findIndex(s => s.type === 'iac.apply');
    expect((await stepLogs(owner, run.data.id, applyIndex))[1]).toBe(
      `Checked out ${REPOSITORY}@${repository.first.slice(
        0,
        7,
      )} (already on disk)`,
    );
    expect(JSON.stringify(runnerLogs)).not.toContain(TOKEN);
  });

  it("replaces the files of an earlier commit in the working directory, not the tool's lock info", async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const repository = networkRepository('checkout');
    let sha = repository.first;
    const client = clientClaiming(baseUrl, runnerKey, () => ({
      repoUrl: repository.url,
      sha,
    }));
    const plan = async () => {
      const run = await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: {} },
      });
      await runner(client, []).run();
      await owner.call('cancelPipelineRun', {
        params: { id: run.data.id },
        body: { data: {} },
      });
    };
    await plan();
    // Another terraform holds the local state's lock meanwhile (someone at a terminal): the
    // file that says who must stay, or the next plan's error names no holder and no lock ID.
    const workDir = path.join(workRoot, stack.id);
    const lockInfo = path.join(workDir, '.terraform.tfstate.lock.info');
    fs.writeFileSync(lockInfo, '{"ID":"lock-1","Who":"ana@laptop"}');
    sha = repository.second;
    await plan();
    expect(fs.readFileSync(lockInfo, 'utf8')).toBe(
      '{"ID":"lock-1","Who":"ana@laptop"}',
    );
    expect(fs.readFileSync(path.join(workDir, 'main.tf'), 'utf8')).toBe(
      '# second commit\n',
    );
    expect(fs.existsSync(path.join(workDir, 'old.tf'))).toBe(false);
    expect(fs.readdirSync(path.join(workRoot, 'checkouts')).sort()).toEqual(
      [repository.first, repository.second].sort(),
    );
  });

  it('fails the step with CHECKOUT_FAILED when the commit cannot be fetched, planning nothing', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const repository = networkRepository('checkout');
    const missing = 'f'.repeat(40);
    const client = clientClaiming(baseUrl, runnerKey, () => ({
      repoUrl: repository.url,
      sha: missing,
      token: TOKEN,
    }));
    const runnerLogs: string[] = [];
    const run = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    await runner(client, runnerLogs).run();

    const failed = await owner.call('getPipelineRun', {
      params: { id: run.data.id },
    });
    expect(failed.data.status).toBe('FAILED');
    expect(failed.data.error).toEqual({
      code: 'InfraDelivery:Runner:CHECKOUT_FAILED',
      message: expect.stringMatching(
        /^Checking out acme\/network-infra@fffffff failed: git fetch failed: \S.*/,
      ),
    });
    const logs = await stepLogs(owner, run.data.id);
    expect(logs).toEqual([
      'checkout-runner on checkout-host.example.com took this step (attempt 1)',
      failed.data.error!.message,
    ]);
    expect(fs.existsSync(path.join(workRoot, stack.id, 'fake-iac.calls'))).toBe(
      false,
    );
    expect(fs.readdirSync(path.join(workRoot, 'checkouts'))).toEqual([]);
    expect(JSON.stringify([runnerLogs, logs, failed.data])).not.toContain(
      TOKEN,
    );
  });

  it('sends the token to an https remote as a basic Authorization header, never in the URL', async () => {
    const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-tls-'));
    const [key, cert] = ['key.pem', 'cert.pem'].map(f => path.join(certDir, f));
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
        ...['-keyout', key, '-out', cert, '-subj', '/CN=127.0.0.1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    const seen: { url?: string; authorization?: string }[] = [];
    const forge = createServer(
      { key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
      (req, res) => {
        seen.push({ url: req.url, authorization: req.headers.authorization });
        res.statusCode = 403;
        res.end('denied');
      },
    );
    await new Promise<void>(resolve => forge.listen(0, '127.0.0.1', resolve));
    process.env.GIT_SSL_CAINFO = cert;
    try {
      const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
      const port = (forge.address() as AddressInfo).port;
      const client = clientClaiming(baseUrl, runnerKey, () => ({
        repoUrl: `https://127.0.0.1:${port}/acme/network-infra.git`,
        sha: 'a'.repeat(40),
        token: TOKEN,
      }));
      const run = await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: {} },
      });
      await runner(client, []).run();
      expect(seen[0]).toEqual({
        url: '/acme/network-infra.git/info/refs?service=git-upload-pack',
        authorization: `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString(
          'base64',
        )}`,
      });
      const failed = await owner.call('getPipelineRun', {
        params: { id: run.data.id },
      });
      expect(failed.data.error?.code).toBe(
        'InfraDelivery:Runner:CHECKOUT_FAILED',
      );
      expect(JSON.stringify(failed.data)).not.toContain(TOKEN);
    } finally {
      delete process.env.GIT_SSL_CAINFO;
      forge.close();
    }
  });

  it('refuses a clone URL that is neither https nor file', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const client = clientClaiming(baseUrl, runnerKey, () => ({
      repoUrl: 'ext::sh -c touch% /tmp/pwned',
      sha: 'a'.repeat(40),
    }));
    const run = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    await runner(client, []).run();
    const failed = await owner.call('getPipelineRun', {
      params: { id: run.data.id },
    });
    expect(failed.data.error).toMatchObject({
      code: 'InfraDelivery:Runner:CHECKOUT_FAILED',
      message: expect.stringContaining('is not an https clone URL'),
    });
  });

  it('plans the source root with --no-checkout, and says so in the step logs', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const repository = networkRepository('checkout');
    const client = clientClaiming(baseUrl, runnerKey, () => ({
      repoUrl: repository.url,
      sha: repository.second,
    }));
    const run = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    await runner(client, [], { checkout: false }).run();
    expect(
      fs.readFileSync(path.join(workRoot, stack.id, 'main.tf'), 'utf8'),
    ).toBe('# network\n');
    expect((await stepLogs(owner, run.data.id))[1]).toBe(
      `Checkouts are off (--no-checkout): planning ${sourceRoot}, not ${REPOSITORY}@${repository.second.slice(
        0,
        7,
      )}`,
    );
    expect(fs.existsSync(path.join(workRoot, 'checkouts'))).toBe(false);
  });
});
