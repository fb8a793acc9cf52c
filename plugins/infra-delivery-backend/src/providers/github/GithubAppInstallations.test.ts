import { generateKeyPairSync } from 'node:crypto';
import { UrlReaders } from '@backstage/backend-defaults/urlReader';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { JsonObject } from '@backstage/types';
import { InfraDeliveryError } from '../../errors';
import {
  commitSha,
  FAKE_GITHUB_HOST,
  FakeGithub,
} from '../../__testUtils__/fakeGithub';
import {
  ForgeAccessError,
  GithubAppInstallations,
  parseRepositoryUrl,
} from './GithubAppInstallations';

const MAIN = commitSha('main');
const FEATURE = commitSha('feature');
const TAG = commitSha('tag');

function appsFor(config: JsonObject) {
  const root = new ConfigReader(config);
  return GithubAppInstallations.fromConfig(
    root,
    UrlReaders.default({ config: root, logger: mockServices.logger.mock() }),
  );
}

async function rejection(
  promise: Promise<unknown>,
): Promise<InfraDeliveryError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InfraDeliveryError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a rejection');
}

function otherKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs1', format: 'pem' })
    .toString();
}

describe('parseRepositoryUrl', () => {
  it.each([
    ['https://ghe.example.test/acme/network', 'acme', 'network'],
    ['https://ghe.example.test/acme/network.git', 'acme', 'network'],
    ['https://ghe.example.test/acme/network/', 'acme', 'network'],
    ['https://ghe.example.test/Acme-Org/my.repo_x', 'Acme-Org', 'my.repo_x'],
    ['https://github.com:8443/acme/network', 'acme', 'network'],
  ])('reads %s', (url, owner, name) => {
    const location = parseRepositoryUrl(url);
    expect(location).toEqual({
      host: new URL(url).host,
      owner,
      name,
      url: `https://${new URL(url).host}/${owner}/${name}`,
    });
  });

  it.each([
    'https://ghe.example.test/acme',
    'https://ghe.example.test/acme/network/tree/main',
    'https://ghe.example.test/acme/network?tab=readme',
    'https://user:secret@ghe.example.test/acme/network',
    'https://ghe.example.test/acme/..',
    'not a url',
  ])('refuses %s with INVALID_REPO_URL', url => {
    expect(() => parseRepositoryUrl(url)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'InfraDelivery:CodeSource:INVALID_REPO_URL',
      }),
    );
  });
});

describe('GithubAppInstallations', () => {
  let github: FakeGithub;

  beforeAll(async () => {
    github = await FakeGithub.start();
    github.addRepository({
      owner: 'acme',
      name: 'network',
      id: 77,
      defaultBranch: 'main',
      visibility: 'internal',
      branches: { main: MAIN, 'feature/vpc': FEATURE },
      tags: { 'v1.0.0': TAG },
      commits: {
        [MAIN]: { 'module.yaml': 'inputs: []\n' },
        [FEATURE]: { 'modules/vpc/module.yaml': 'inputs: []\n' },
        [TAG]: { 'dir with space/module.yaml': 'inputs: []\n' },
      },
    });
    github.install('11', 'all');
  });

  afterAll(() => github.close());

  beforeEach(() => {
    github.outage = undefined;
  });

  it('signs an App JWT the way GitHub requires and opens the repository', async () => {
    const before = github.jwtClaims.length;
    const repository = await appsFor(github.config()).open(
      github.repoUrl('acme', 'network'),
      '11',
    );
    expect(repository.repository).toEqual({
      id: '77',
      fullName: 'acme/network',
      defaultBranch: 'main',
      visibility: 'INTERNAL',
    });
    const [claims] = github.jwtClaims.slice(before);
    const now = Math.floor(Date.now() / 1000);
    expect(claims.iss).toBe(String(github.appId));
    expect(claims.iat).toBeGreaterThanOrEqual(now - 65);
    expect(claims.iat).toBeLessThanOrEqual(now - 55);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(600);
    expect(claims.exp).toBeGreaterThan(now);
  });

  it('mints a token for one repository that reads contents only, and refuses one the installation does not reach', async () => {
    github.install('12', ['acme/network']);
    const apps = appsFor(github.config());
    const minted = await apps.repositoryReadToken(
      github.repoUrl('acme', 'network'),
      '12',
    );
    expect(new Date(minted.expiresAt!).getTime()).toBeGreaterThan(Date.now());
    expect(github.issuedTokens.find(t => t.token === minted.token)).toEqual({
      token: minted.token,
      installationId: '12',
      repositories: ['network'],
      permissions: { contents: 'read' },
    });
    const refused = await rejection(
      apps.repositoryReadToken(github.repoUrl('acme', 'elsewhere'), '12'),
    );
    expect(refused).toMatchObject({
      status: 422,
      code: 'InfraDelivery:CodeSource:REPOSITORY_NOT_FOUND',
    });
    expect(refused.message).not.toContain(minted.token);
  });

  it('signs with a PKCS#8 key as well', async () => {
    const pkcs8 = await FakeGithub.start('pkcs8');
    try {
      expect(pkcs8.privateKeyPem).toContain('BEGIN PRIVATE KEY');
      pkcs8.addRepository({ owner: 'acme', name: 'site', id: 5 });
      pkcs8.install('3', ['acme/site']);
      const repository = await appsFor(pkcs8.config()).open(
        pkcs8.repoUrl('acme', 'site'),
        '3',
      );
      expect(repository.repository.id).toBe('5');
    } finally {
      await pkcs8.close();
    }
  });

  it('reads refs, branches and files through the URL reader with the installation token', async () => {
    const repository = await appsFor(github.config()).open(
      github.repoUrl('acme', 'network'),
      '11',
    );
    expect(await repository.branchCommit('main')).toBe(MAIN);
    expect(await repository.branchCommit('feature/vpc')).toBe(FEATURE);
    expect(await repository.branchCommit('nope')).toBeUndefined();
    expect(await repository.resolveCommit('v1.0.0')).toBe(TAG);
    expect(await repository.resolveCommit('main')).toBe(MAIN);
    expect(await repository.resolveCommit('v9.9.9')).toBeUndefined();

    expect(await repository.readFile(FEATURE, 'modules/vpc/module.yaml')).toBe(
      'inputs: []\n',
    );
    expect(await repository.readFile(TAG, 'dir with space/module.yaml')).toBe(
      'inputs: []\n',
    );
    expect(await repository.readFile(MAIN, 'missing/module.yaml')).toBe(
      undefined,
    );

    const reads = github.requestsTo(/\/contents\//);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    for (const read of reads) {
      expect(read.credential).toBe('installation:11');
      expect(read.accept).toBe('application/vnd.github.v3.raw');
    }
    expect(reads.map(r => `${r.path}${r.query}`)).toContain(
      `/api/v3/repos/acme/network/contents/modules/vpc/module.yaml?ref=${FEATURE}`,
    );
  });

  it('tries every App of the host and uses the one that owns the installation', async () => {
    const config = github.config([
      {
        appId: 1,
        clientId: 'Iv1.other',
        clientSecret: 'other',
        privateKey: otherKeyPem(),
      },
    ]);
    const repository = await appsFor(config).open(
      github.repoUrl('acme', 'network'),
      '11',
    );
    expect(repository.repository.id).toBe('77');
  });

  it('reports refused App credentials, a suspended and an unknown installation as access errors', async () => {
    const wrongKey = github.config();
    (wrongKey as any).integrations.github[0].apps[0].privateKey = otherKeyPem();
    const unauthorized = await rejection(
      appsFor(wrongKey).open(github.repoUrl('acme', 'network'), '11'),
    );
    expect(unauthorized).toBeInstanceOf(ForgeAccessError);
    expect(unauthorized.code).toBe(
      'InfraDelivery:ForgeInstallation:UNAUTHORIZED',
    );

    github.install('12', 'all');
    github.suspend('12');
    const suspended = await rejection(
      appsFor(github.config()).open(github.repoUrl('acme', 'network'), '12'),
    );
    expect(suspended).toBeInstanceOf(ForgeAccessError);
    expect(suspended.code).toBe('InfraDelivery:ForgeInstallation:SUSPENDED');

    const unknown = await rejection(
      appsFor(github.config()).open(github.repoUrl('acme', 'network'), '999'),
    );
    expect(unknown).toBeInstanceOf(ForgeAccessError);
    expect(unknown.status).toBe(422);
    expect(unknown.code).toBe('InfraDelivery:ForgeInstallation:NOT_FOUND');
  });

  it('does not follow the redirect of a moved repository', async () => {
    github.moveRepository('acme', 'old-name', 77);
    const moved = await rejection(
      appsFor(github.config()).open(github.repoUrl('acme', 'old-name'), '11'),
    );
    expect(moved).toBeInstanceOf(ForgeAccessError);
    expect(moved.code).toBe('InfraDelivery:CodeSource:REPOSITORY_MOVED');
    expect(github.requestsTo(/\/repositories\//)).toEqual([]);
  });

  it('skips Apps limited to other owners', async () => {
    const config = github.config();
    (config as any).integrations.github[0].apps[0].allowedInstallationOwners = [
      'someone-else',
    ];
    const refused = await rejection(
      appsFor(config).open(github.repoUrl('acme', 'network'), '11'),
    );
    expect(refused.status).toBe(422);
    expect(refused.code).toBe('InfraDelivery:ForgeIntegration:NOT_CONFIGURED');
  });

  it('refuses hosts without an App in integrations.github', async () => {
    const refused = await rejection(
      appsFor(github.config()).open('https://github.com/acme/network', '11'),
    );
    expect(refused.code).toBe('InfraDelivery:ForgeIntegration:NOT_CONFIGURED');
    expect(refused.message).toBe(
      'No GitHub App is configured for github.com in integrations.github',
    );
  });

  it('answers 503 when the forge fails or rate-limits, never an access error', async () => {
    github.outage = { status: 502 };
    const outage = await rejection(
      appsFor(github.config()).open(github.repoUrl('acme', 'network'), '11'),
    );
    expect(outage).not.toBeInstanceOf(ForgeAccessError);
    expect(outage.status).toBe(503);
    expect(outage.code).toBe('InfraDelivery:Forge:UNAVAILABLE');

    const reset = Math.floor(Date.now() / 1000) + 120;
    github.outage = {
      status: 403,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      },
    };
    const limited = await rejection(
      appsFor(github.config()).open(github.repoUrl('acme', 'network'), '11'),
    );
    expect(limited).not.toBeInstanceOf(ForgeAccessError);
    expect(limited.status).toBe(503);
    expect(Number(limited.headers?.['Retry-After'])).toBeGreaterThan(100);
  });

  it('answers 503 when the forge cannot be reached', async () => {
    const config = github.config();
    (config as any).integrations.github[0].apiBaseUrl =
      'http://127.0.0.1:9/api/v3';
    const unreachable = await rejection(
      appsFor(config).open(`https://${FAKE_GITHUB_HOST}/acme/x`, '11'),
    );
    expect(unreachable.status).toBe(503);
    expect(unreachable.code).toBe('InfraDelivery:Forge:UNAVAILABLE');
  });
});
