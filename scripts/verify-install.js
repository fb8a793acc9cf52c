#!/usr/bin/env node
/*
 * Installs this checkout's packages into a brand-new Backstage portal, the way an adopter
 * would, and checks that the portal works. Run through scripts/verify-install (which puts
 * Node 24 and yarn on PATH); see that file for the options.
 *
 * What is done exactly as the package READMEs say: the dependencies their `yarn --cwd … add`
 * lines add, the `backend.add(…)` lines (read from the READMEs themselves, so a README whose
 * snippet does not work fails here), the frontend plugin discovered through `app.packages: all` of the
 * create-app template, the configuration keys (`infraDelivery.roleMappings`,
 * `infraDelivery.demo.enabled`, `catalog.providers.infraDelivery`), the annotated component
 * of the frontend README's example, the common README's typed client example, which the
 * portal's `yarn tsc` compiles against the published declarations (its statements inside a
 * function: the portal's modules have no top-level await), and the backend README's permission
 * policy module with its `yarn add` lines, which `yarn tsc` compiles and the backend's lint
 * checks for imports the portal does not declare.
 *
 * What an adopter of published packages would not do, and why:
 * - The portal's root package.json gets `resolutions` pointing every `@infra-delivery/*`
 *   package at its tarball. They stand in for the npm registry (the packages are not published
 *   from this checkout); the dependency ranges themselves are the `^<version>` that `yarn add`
 *   writes, so the packages still find each other through their ordinary ranges.
 * - Each `@backstage/*` range of the create-app template resolves to the version it names, the
 *   Backstage 1.55 release's (see pinReleaseVersions), in place of create-app's seed lockfile.
 * - The registry pins of the toolchain notes (`@swc/core`, `unrs-resolver`, `rollup`,
 *   `@yarnpkg/core`, better-sqlite3 13 for Node 24) and one of the signals backend (below):
 *   the create-app template itself needs them on this registry and Node, with or without our
 *   packages.
 * - Ports: the backend and the frontend dev server listen on free ports, not 7007/3000.
 * - `infraDelivery.demo.enabled` (documented for local development) gives the portal
 *   organization stacks with the ids of the README's annotated component.
 */
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..');
// The create-app release of Backstage 1.55, the line this repository builds against (backstage.json).
const CREATE_APP_VERSION = process.env.VERIFY_CREATE_APP_VERSION || '0.9.2';
// VERIFY_LATEST_PORTAL=1: the template's ranges take the newest releases they allow, as for an
// adopter running create-app today without its seed lockfile, instead of Backstage 1.55's.
const LATEST_PORTAL = process.env.VERIFY_LATEST_PORTAL === '1';
// VERIFY_WITHOUT_NOTIFICATIONS=1: the portal without the notifications plugins the create-app
// template adds (as many portals made before they existed, or that removed them), so nothing of
// theirs is in its lockfile before our packages come.
const WITHOUT_NOTIFICATIONS = process.env.VERIFY_WITHOUT_NOTIFICATIONS === '1';
// VERIFY_LEGACY_APP=1: the portal of `create-app --legacy` (the legacy frontend system: `createApp`
// from @backstage/app-defaults), wired as the frontend README's "Legacy frontend system" and
// "Template form fields" sections say, instead of the new frontend system's discovery.
const LEGACY_APP = process.env.VERIFY_LEGACY_APP === '1';
const NOTIFICATIONS_PACKAGES = {
  backend: [
    '@backstage/plugin-notifications-backend',
    '@backstage/plugin-scaffolder-backend-module-notifications',
  ],
  app: ['@backstage/plugin-notifications'],
};
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
// The path the company portal of the last step serves the app under (`app.baseUrl`).
const SUB_PATH = '/portal';
const REGISTRY_PINS = {
  '@swc/core': '1.16.18',
  'unrs-resolver': '1.12.2',
  rollup: '4.67.4',
  '@yarnpkg/core': '4.9.1',
  'better-sqlite3': '^13.2.0',
  // Without create-app's seed yarn.lock (fetched from GitHub, unreachable here) the template's
  // `^0.3.19` takes 0.3.21 of the Backstage 1.56 line, whose router needs the
  // `addWebSocketHandler` of backend-defaults 0.19; the template's backend-defaults is ^0.18.
  '@backstage/plugin-signals-backend': '0.3.19',
};
const PACKAGE_DIRS = {
  common: 'plugins/infra-delivery-common',
  node: 'plugins/infra-delivery-node',
  backend: 'plugins/infra-delivery-backend',
  frontend: 'plugins/infra-delivery',
  catalog: 'plugins/catalog-backend-module-infra-delivery',
  scaffolder: 'plugins/scaffolder-backend-module-infra-delivery',
  adminGroups: 'plugins/permission-backend-module-admin-groups',
  runner: 'packages/runner',
};
// The READMEs whose `backend.add(…)` lines the portal's backend gets, in the root README's order.
const BACKEND_READMES = [
  PACKAGE_DIRS.backend,
  PACKAGE_DIRS.catalog,
  PACKAGE_DIRS.scaffolder,
];
const ACTION_IDS = [
  'infra-delivery:stack:create',
  'infra-delivery:run:trigger',
  'infra-delivery:cloud-account:create',
];

const keep = process.argv.includes('--keep');
const started = Date.now();
const results = { passed: 0, failed: 0 };
const servers = [];
let workDir;

const seconds = since => `${Math.round((Date.now() - since) / 1000)} s`;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
const progress = message =>
  process.stderr.write(`verify-install: ${message}\n`);

function report(ok, name, detail) {
  results[ok ? 'passed' : 'failed'] += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

/** Runs one check; a thrown error fails it with its message. Returns whether it passed. */
async function check(name, body) {
  const t0 = Date.now();
  try {
    const detail = await body();
    report(true, name, detail ?? seconds(t0));
    return true;
  } catch (error) {
    report(false, name, String(error?.message ?? error).split('\n')[0]);
    return false;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Runs a command to completion with its output in a log file; throws with the log's end. */
function run(name, command, args, options = {}) {
  const log = path.join(workDir, 'logs', `${name}.log`);
  const fd = fs.openSync(log, 'a');
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', fd, fd],
    timeout: options.timeoutMs,
  });
  fs.closeSync(fd);
  if (result.status !== 0) {
    const tail = fs.readFileSync(log, 'utf8').trimEnd().split('\n').slice(-15);
    process.stderr.write(`${tail.join('\n')}\n`);
    // A command stopped at its time limit may still exit with a status of its own (pack-packages
    // traps the SIGTERM and exits 130): say that it ran out of time, not that it failed.
    const ending =
      result.error?.code === 'ETIMEDOUT'
        ? `was stopped after its time limit of ${options.timeoutMs / 1000} s`
        : `exited with ${result.status ?? result.signal ?? result.error}`;
    throw new Error(`${command} ${args.join(' ')} ${ending}; log: ${log}`);
  }
  return fs.readFileSync(log, 'utf8');
}

/** Starts a long-running server in its own process group, stopped at exit. */
function startServer(name, command, args, cwd) {
  const log = path.join(workDir, 'logs', `${name}.log`);
  const fd = fs.openSync(log, 'a');
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  fs.closeSync(fd);
  servers.push(child);
  return { child, log };
}

/** Stops every server's process group, waiting up to 15 s before killing what is left. */
async function stopServers() {
  const alive = pid => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const groups = servers.splice(0).map(child => child.pid);
  for (const pid of groups.filter(alive)) process.kill(-pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (groups.some(alive) && Date.now() < deadline) await sleep(250);
  for (const pid of groups.filter(alive)) process.kill(-pid, 'SIGKILL');
}

async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: p } = server.address();
        server.close(() => resolve(p));
      });
    });
    if (port !== 3000 && port !== 7007) return port;
  }
}

async function waitFor(what, timeoutMs, probe, child) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) {
      throw new Error(`${what}: the process exited with ${child.exitCode}`);
    }
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(2000);
  }
  throw new Error(
    `${what}: not within ${timeoutMs / 1000} s${
      last ? ` (${last.message})` : ''
    }`,
  );
}

async function http(method, url, { token, body } = {}) {
  const send = () =>
    fetch(url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  let response;
  try {
    response = await send();
  } catch (error) {
    // A kept-alive connection the backend closed while `run` blocked this process (the runner
    // check waits in spawnSync) fails the next request on it; a GET is sent once more.
    if (method !== 'GET' || error?.message !== 'fetch failed') throw error;
    response = await send();
  }
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/**
 * The IaC binary for the runner's check: tofu or terraform from PATH, else the runner's test
 * stand-in. The runner refuses to start without an executable binary; with `--once` and no
 * work it never runs it.
 */
function iacBinary() {
  for (const name of ['tofu', 'terraform']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], {
      encoding: 'utf8',
    }).stdout.trim();
    if (found) return found;
  }
  return path.join(REPO, 'packages/runner/src/__testUtils__/fake-iac');
}

function expectStatus(response, status, what) {
  assert(
    response.status === status,
    `${what}: HTTP ${
      response.status
    }, expected ${status}: ${response.text.slice(0, 200)}`,
  );
}

/** The fenced code blocks of a README, with their language. */
function codeBlocks(readme) {
  const text = fs.readFileSync(path.join(REPO, readme, 'README.md'), 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map(m => ({
    lang: m[1],
    code: m[2],
  }));
}

/** The `backend.add(import('@infra-delivery/…'))` statements of a package's README. */
function backendAddLines(dir) {
  const name = packageJson(dir).name;
  const statements = codeBlocks(dir)
    .filter(block => block.lang === 'ts')
    .flatMap(block =>
      [
        ...block.code.matchAll(
          /backend\.add\(\s*import\((['"])(.+?)\1\),?\s*\);/g,
        ),
      ]
        .filter(m => m[2] === name)
        .map(m => m[0]),
    );
  assert(
    statements.length > 0,
    `${dir}/README.md has no backend.add(import('${name}')) line`,
  );
  return statements[0];
}

/** The example Component of the frontend README's "Entity annotations" section. */
function annotatedComponentYaml() {
  const block = codeBlocks(PACKAGE_DIRS.frontend).find(
    b => b.lang === 'yaml' && /^kind: Component$/m.test(b.code),
  );
  assert(block, `${PACKAGE_DIRS.frontend}/README.md has no example Component`);
  return block.code;
}

function packageJson(dir) {
  return JSON.parse(
    fs.readFileSync(path.join(REPO, dir, 'package.json'), 'utf8'),
  );
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** scripts/pack-packages, or the tarballs already in dist-packages/ with VERIFY_REUSE_PACKAGES=1. */
function packTarballs() {
  const out = path.join(REPO, 'dist-packages');
  const tarballs = {};
  if (process.env.VERIFY_REUSE_PACKAGES !== '1') {
    run('pack-packages', path.join(REPO, 'scripts/pack-packages'), [out], {
      cwd: REPO,
      // 15 minutes were not enough beside other worktrees' work (load 20–27: yarn tsc 287 s,
      // then 147 to 259 s per package, two at a time).
      timeoutMs: 40 * 60_000,
    });
  }
  for (const [key, dir] of Object.entries(PACKAGE_DIRS)) {
    const { name, version } = packageJson(dir);
    const file = path.join(out, `${name.replace('/', '-')}-${version}.tgz`);
    assert(fs.existsSync(file), `no tarball ${file}`);
    tarballs[key] = { name, version, file };
  }
  return tarballs;
}

function createPortal(portal) {
  fs.mkdirSync(portal);
  run(
    'create-app',
    'npm',
    [
      'exec',
      '--yes',
      `--package=@backstage/create-app@${CREATE_APP_VERSION}`,
      '--',
      'backstage-create-app',
      '--path',
      portal,
      '--skip-install',
      ...(LEGACY_APP ? ['--legacy'] : []),
    ],
    {
      cwd: workDir,
      env: { BACKSTAGE_APP_NAME: 'portal' },
      timeoutMs: 5 * 60_000,
    },
  );
  assert(
    fs.existsSync(path.join(portal, 'packages/backend/src/index.ts')),
    'create-app wrote no packages/backend',
  );
  if (WITHOUT_NOTIFICATIONS) removeNotifications(portal);
}

/**
 * Takes the notifications plugins out of the new portal: their dependencies, the backend's
 * `backend.add(…)` lines and the app's sidebar item. Throws when the template no longer has
 * them where this expects, so the mode cannot silently check a portal that still has them.
 */
function removeNotifications(portal) {
  for (const [workspace, names] of Object.entries(NOTIFICATIONS_PACKAGES)) {
    const file = path.join(portal, 'packages', workspace, 'package.json');
    const pkg = readJson(file);
    for (const name of names) {
      assert(pkg.dependencies[name], `packages/${workspace} has no ${name}`);
      delete pkg.dependencies[name];
    }
    writeJson(file, pkg);
  }
  const edit = (file, edits) => {
    let source = fs.readFileSync(path.join(portal, file), 'utf8');
    for (const pattern of edits) {
      assert(pattern.test(source), `${file} has no ${pattern}`);
      source = source.replace(pattern, '');
    }
    fs.writeFileSync(path.join(portal, file), source);
  };
  edit('packages/backend/src/index.ts', [
    /^.*backend\.add\(\s*import\('@backstage\/plugin-scaffolder-backend-module-notifications'\),?\s*\);\n/m,
    /^backend\.add\(import\('@backstage\/plugin-notifications-backend'\)\);\n/m,
  ]);
  edit('packages/app/src/modules/nav/Sidebar.tsx', [
    /^import \{ NotificationsSidebarItem \} from '@backstage\/plugin-notifications';\n/m,
    /^\s*<NotificationsSidebarItem \/>\n\s*<SidebarDivider \/>\n/m,
  ]);
  const left = ['packages/backend/src/index.ts', 'packages/app/src'].flatMap(
    dir => {
      const full = path.join(portal, dir);
      const files = fs.statSync(full).isDirectory()
        ? fs
            .readdirSync(full, { recursive: true })
            .map(f => path.join(full, f))
            .filter(f => /\.tsx?$/.test(f))
        : [full];
      return files.filter(f =>
        /plugin-notifications/.test(fs.readFileSync(f, 'utf8')),
      );
    },
  );
  assert(left.length === 0, `still naming notifications: ${left.join(', ')}`);
}

/**
 * Makes the new portal a Backstage 1.55 app as create-app made it on the release: each
 * `@backstage/*` dependency of its package.json files resolves to the version its range names
 * (`^1.2.3` → 1.2.3), through a `resolutions` entry for that range alone, so our packages'
 * own ranges still resolve as in an adopter's app. Without create-app's seed yarn.lock
 * (fetched from GitHub, unreachable here) the template's ranges take the newest releases,
 * some of the next Backstage line (scaffolder-backend 4.3 on scaffolder-node 1.0, …), and
 * the portal would not be the 1.55 app it stands for. Returns how many were pinned. With
 * `release` false, only the registry pins (VERIFY_LATEST_PORTAL).
 */
function pinReleaseVersions(portal, release) {
  const rootFile = path.join(portal, 'package.json');
  const root = readJson(rootFile);
  const pins = {};
  for (const file of [
    'package.json',
    'packages/app/package.json',
    'packages/backend/package.json',
  ]) {
    const pkg = readJson(path.join(portal, file));
    for (const deps of [pkg.dependencies, pkg.devDependencies]) {
      for (const [name, range] of Object.entries(deps ?? {})) {
        const version = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
        if (release && name.startsWith('@backstage/') && version) {
          pins[`${name}@npm:${range}`] = version;
        }
      }
    }
  }
  root.resolutions = { ...root.resolutions, ...REGISTRY_PINS, ...pins };
  writeJson(rootFile, root);
  return Object.keys(pins).length;
}

/** The versions of each `@backstage/*` package in a yarn.lock: name → Set of versions. */
function backstageVersions(lockfile) {
  const versions = new Map();
  let names;
  for (const line of fs.readFileSync(lockfile, 'utf8').split('\n')) {
    if (/^"?@backstage\//.test(line) && line.endsWith(':')) {
      names = new Set(
        line
          .slice(0, -1)
          .split(', ')
          .map(d => d.replace(/^"|"$/g, '').replace(/@npm:.*$/, '')),
      );
    } else if (names && line.startsWith('  version: ')) {
      const version = line.slice('  version: '.length).replace(/^"|"$/g, '');
      for (const name of names) {
        if (!versions.has(name)) versions.set(name, new Set());
        versions.get(name).add(version);
      }
      names = undefined;
    } else if (!line.startsWith(' ')) {
      names = undefined;
    }
  }
  return versions;
}

/**
 * Copies of `@backstage/*` packages our packages brought: a package the portal had before they
 * came in another version now (beside the app's own), and a package they brought that is in
 * the lockfile in more than one version (as when the portal has no notifications plugins and
 * our range takes a release of another Backstage line than the rest of the portal).
 */
function secondCopies(before, after) {
  return [...after].flatMap(([name, versions]) => {
    const own = before.get(name);
    if (!own) {
      return versions.size > 1
        ? [`${name} ${[...versions].join(', ')}, none of them the portal's`]
        : [];
    }
    const added = [...versions].filter(v => !own.has(v));
    return added.length > 0
      ? [
          `${name} ${added.join(', ')} beside the portal's ${[...own].join(
            ', ',
          )}`,
        ]
      : [];
  });
}

/** The `@backstage/*` packages in `after` that `before` did not have, with their versions. */
function addedPackages(before, after) {
  return [...after]
    .filter(([name]) => !before.has(name))
    .map(([name, versions]) => `${name} ${[...versions].join(', ')}`);
}

/**
 * The peer requirements Yarn finds unmet that concern our packages, from `yarn explain
 * peer-requirements` in the portal: a line `pXXXXXX → ✘ <provider> doesn't provide <peer> to
 * <requester>` (or `provides … which doesn't satisfy`) naming an `@infra-delivery/*` package.
 * `yarn install` prints only a summary of these (YN0086 "Some peer dependencies are
 * incorrectly met by dependencies"), which the template's own packages print too.
 */
function unmetPeerRequirements(portal) {
  const result = spawnSync('yarn', ['explain', 'peer-requirements'], {
    cwd: portal,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert(
    result.status === 0,
    `yarn explain peer-requirements exited with ${result.status}: ${result.stderr}`,
  );
  return result.stdout
    .split('\n')
    .filter(line => / → ✘ /.test(line) && line.includes('@infra-delivery/'))
    .map(line =>
      line
        .replace(/^p\w+ → ✘ /, '')
        .replace(/@file:\S+/g, '')
        .replace(/ \[\w+\]/g, '')
        .trim(),
    );
}

/** The portal's package.json files after the READMEs' `yarn add` lines and the pins. */
function addPackages(portal, tarballs) {
  const rootFile = path.join(portal, 'package.json');
  const root = readJson(rootFile);
  root.resolutions = { ...root.resolutions, ...REGISTRY_PINS };
  for (const { name, file } of Object.values(tarballs)) {
    root.resolutions[name] = `file:${file}`;
  }
  writeJson(rootFile, root);

  const add = (workspace, deps) => {
    const file = path.join(portal, 'packages', workspace, 'package.json');
    const pkg = readJson(file);
    for (const [name, range] of deps) pkg.dependencies[name] = range;
    writeJson(file, pkg);
  };
  const range = key => [tarballs[key].name, `^${tarballs[key].version}`];
  // `yarn --cwd packages/backend add …` of the backend, catalog and scaffolder READMEs, and of
  // the common README for the backend code that calls the API with its typed client.
  add('backend', [
    range('backend'),
    range('catalog'),
    range('scaffolder'),
    range('common'),
    ...readmeLibraryAdds(PACKAGE_DIRS.backend, 'backend'),
    ['better-sqlite3', REGISTRY_PINS['better-sqlite3']],
  ]);
  // `yarn --cwd packages/app add …` of the frontend README; in a legacy app also the library
  // its scaffolder field wiring imports, which the legacy template's app does not list.
  add('app', [
    range('frontend'),
    ...(LEGACY_APP ? readmeLibraryAdds(PACKAGE_DIRS.frontend, 'app') : []),
  ]);
}

function wireBackend(portal) {
  const file = path.join(portal, 'packages/backend/src/index.ts');
  const source = fs.readFileSync(file, 'utf8');
  const lines = BACKEND_READMES.map(backendAddLines).join('\n');
  assert(
    source.includes('backend.start();'),
    'index.ts has no backend.start()',
  );
  fs.writeFileSync(
    file,
    source.replace('backend.start();', `${lines}\n\nbackend.start();`),
  );
}

/** Inserts `text` before the first `marker` after `anchor` in `source`; throws when either is missing. */
function insertAfterAnchor(source, anchor, marker, text, what) {
  const start = source.indexOf(anchor);
  assert(start >= 0, `${what}: no ${anchor}`);
  const at = source.indexOf(marker, start + anchor.length);
  assert(at >= 0, `${what}: no ${marker} after ${anchor}`);
  return `${source.slice(0, at)}${text}${source.slice(at)}`;
}

/**
 * A legacy app (`create-app --legacy`) wired as the frontend README's "Legacy frontend system"
 * and "Template form fields" sections say, with their code blocks' own lines: the entity
 * components in EntityPage.tsx (the four tabs and the overview card on the service page, the
 * Stacks and Pipeline runs tabs on the system page and the default entity page), the
 * Infrastructure page's route in App.tsx and its sidebar item in Root.tsx, and the scaffolder
 * field extensions (their file, its imports, and the `/create` route with them).
 */
function wireLegacyApp(portal) {
  const blocks = codeBlocks(PACKAGE_DIRS.frontend).filter(
    b => b.lang === 'tsx',
  );
  const find = (needle, what) => {
    const block = blocks.find(b => b.code.includes(needle));
    assert(block, `${PACKAGE_DIRS.frontend}/README.md has no ${what}`);
    return block.code;
  };
  const src = path.join(portal, 'packages/app/src');
  const edit = (file, change) => {
    const full = path.join(src, file);
    fs.writeFileSync(full, change(fs.readFileSync(full, 'utf8')));
  };

  const entityPage = find(
    'EntityInfraDeliveryStacksContent />',
    'EntityPage.tsx wiring',
  );
  const entityImport = entityPage.match(
    /import \{[^}]*\} from '@infra-delivery\/plugin-infra-delivery';\n/,
  )?.[0];
  assert(entityImport, 'its EntityPage.tsx wiring imports nothing of ours');
  const card = entityPage.match(
    /^( *)<EntitySwitch>\n(?:\1 [^\n]*\n)*?\1<\/EntitySwitch>\n/m,
  )?.[0];
  assert(
    card?.includes('isInfraDeliveryOverviewAvailable'),
    'its EntityPage.tsx wiring has no overview card',
  );
  const routes = [
    ...entityPage.matchAll(
      /^( *)<EntityLayout\.Route\n\1 +path="(\/infra-[a-z-]+)"[\s\S]*?^\1<\/EntityLayout\.Route>\n/gm,
    ),
  ];
  assert(
    routes.length === 4,
    `its EntityPage.tsx wiring has ${routes.length} infra routes, not 4`,
  );
  const allRoutes = routes.map(m => m[0]).join('');
  // "add the same two routes (…) to the systemPage and to the page your app shows Resources on"
  const stackRoutes = routes
    .filter(m => ['/infra-stacks', '/infra-runs'].includes(m[2]))
    .map(m => m[0])
    .join('');
  edit('components/catalog/EntityPage.tsx', source => {
    let out = `${entityImport}${source}`;
    out = insertAfterAnchor(
      out,
      'const overviewContent = (',
      '  </Grid>\n);',
      card,
      'EntityPage.tsx',
    );
    out = insertAfterAnchor(
      out,
      'const serviceEntityPage = (',
      '  </EntityLayout>',
      allRoutes,
      'EntityPage.tsx',
    );
    out = insertAfterAnchor(
      out,
      'const systemPage = (',
      '  </EntityLayout>',
      stackRoutes,
      'EntityPage.tsx',
    );
    out = insertAfterAnchor(
      out,
      'const defaultEntityPage = (',
      '  </EntityLayout>',
      stackRoutes,
      'EntityPage.tsx',
    );
    return out;
  });

  const appRoutes = find(
    '<InfraDeliveryHomePage />',
    'App.tsx route of the page',
  );
  const pageImport = appRoutes.match(/^import .*;\n/m)?.[0];
  const pageRoute = appRoutes.match(
    /^ *<Route path="[^"]+" element=\{<InfraDeliveryHomePage \/>\} \/>\n/m,
  )?.[0];
  assert(
    pageImport && pageRoute,
    'its App.tsx block has no import or no <Route>',
  );

  const fields = find('ScaffolderFieldExtensions', 'scaffolder field wiring');
  const [fieldsFile, fieldsApp] = fields.split('// packages/app/src/App.tsx\n');
  assert(fieldsApp, 'its field wiring has no App.tsx part');
  fs.writeFileSync(
    path.join(src, fieldsFile.match(/^\/\/ packages\/app\/src\/(\S+)\n/)[1]),
    fieldsFile.replace(/^\/\/ .*\n/, ''),
  );
  const fieldImports = fieldsApp.match(
    /^(?:import[\s\S]*?from '[^']+';\n)+/,
  )?.[0];
  const createRoute = fieldsApp.match(
    /^<Route path="\/create"[\s\S]*?<\/Route>/m,
  )?.[0];
  assert(
    fieldImports && createRoute,
    'its App.tsx part has no imports or no /create route',
  );

  edit('App.tsx', source => {
    const templateCreate =
      '<Route path="/create" element={<ScaffolderPage />} />';
    assert(source.includes(templateCreate), `App.tsx has no ${templateCreate}`);
    return `${pageImport}${fieldImports}${source}`
      .replace(templateCreate, createRoute)
      .replace('  </FlatRoutes>', `${pageRoute}  </FlatRoutes>`);
  });

  const sidebar = find('<SidebarItem', 'sidebar item');
  const iconImport = sidebar.match(/^import .*;\n/m)?.[0];
  const item = sidebar.match(/^<SidebarItem[^\n]*\/>/m)?.[0];
  assert(
    iconImport && item,
    'its Root.tsx block has no import or no <SidebarItem>',
  );
  edit('components/Root/Root.tsx', source =>
    insertAfterAnchor(
      `${iconImport}${source}`,
      '<SidebarGroup label="Menu"',
      '      </SidebarGroup>',
      `        ${item}\n`,
      'Root.tsx',
    ),
  );
}

/**
 * The common README's typed client example as backend code of the portal, which its `yarn tsc`
 * compiles against the published declarations: its imports, and the rest as the body of a
 * function (the portal's modules have no top-level await). A call the declarations cannot type
 * fails the type check (once TS2590 for a call without a type argument).
 */
function writeClientExample(portal) {
  const block = codeBlocks(PACKAGE_DIRS.common).find(
    ({ lang, code }) => lang === 'ts' && code.includes('client.call('),
  );
  assert(block, `${PACKAGE_DIRS.common}/README.md has no client.call example`);
  const imports = block.code.match(/^(?:import[\s\S]*?from '[^']+';\n)+/);
  assert(
    imports,
    `the client example of ${PACKAGE_DIRS.common} has no imports`,
  );
  const body = block.code.slice(imports[0].length);
  fs.writeFileSync(
    path.join(portal, 'packages/backend/src/infraDeliveryClientExample.ts'),
    `${imports[0]}\nexport async function infraDeliveryClientExample() {\n${body}}\n`,
  );
}

/**
 * The packages other than ours that a README's `yarn --cwd packages/<workspace> add` lines add
 * for its code examples (the backend README's permission policy imports
 * `@backstage/backend-plugin-api`, which a create-app backend does not list), each with the
 * range the line names: a line without one would take the newest release, another Backstage
 * line than the portal's.
 */
function readmeLibraryAdds(dir, workspace) {
  const adds = [];
  for (const { lang, code } of codeBlocks(dir)) {
    if (!['bash', 'sh'].includes(lang)) continue;
    for (const m of code.matchAll(
      new RegExp(`yarn --cwd packages/${workspace} add ([^\\n#]+)`, 'g'),
    )) {
      for (const spec of m[1].trim().split(/\s+/)) {
        const at = spec.indexOf('@', 1);
        const name = at > 0 ? spec.slice(0, at) : spec;
        if (name.startsWith('@infra-delivery/')) continue;
        assert(
          at > 0,
          `${dir}/README.md adds ${name} without a version, which takes the newest release`,
        );
        adds.push([name, spec.slice(at + 1)]);
      }
    }
  }
  return adds;
}

/**
 * The backend README's permission policy module as backend code of the portal (not added to
 * the backend: the portal keeps its allow-all policy), which the portal's `yarn tsc` compiles
 * and its backend's lint checks with the client example below: an import that
 * `packages/backend` does not declare fails `@backstage/no-undeclared-imports` there.
 */
function writePolicyExample(portal) {
  const block = codeBlocks(PACKAGE_DIRS.backend).find(
    ({ lang, code }) => lang === 'ts' && code.includes('policyExtensionPoint'),
  );
  assert(
    block,
    `${PACKAGE_DIRS.backend}/README.md has no permission policy example`,
  );
  fs.writeFileSync(
    path.join(portal, 'packages/backend/src/infraDeliveryPolicyExample.ts'),
    block.code,
  );
  // "A policy that denies by default": the company portal below runs it.
  const deny = denyByDefaultPolicy();
  fs.writeFileSync(
    path.join(portal, 'packages/backend/src', deny.file),
    deny.code,
  );
}

/** The backend README's policy that denies by default: its file name, code and add line. */
function denyByDefaultPolicy() {
  const readme = fs.readFileSync(
    path.join(REPO, PACKAGE_DIRS.backend, 'README.md'),
    'utf8',
  );
  const file = readme.match(
    /as `packages\/backend\/src\/(denyByDefault\w*\.ts)`/,
  )?.[1];
  const block = codeBlocks(PACKAGE_DIRS.backend).find(
    ({ lang, code }) => lang === 'ts' && code.includes('DenyByDefaultPolicy'),
  );
  const add = readme.match(
    /`(backend\.add\(import\('\.\/denyByDefault\w*'\)\);)`/,
  )?.[1];
  assert(
    file && block && add,
    `${PACKAGE_DIRS.backend}/README.md has no deny-by-default policy (file, code and add line)`,
  );
  return { file, code: block.code, add };
}

/**
 * app-config.local.yaml: the READMEs' configuration and the verification's own ports. The
 * guest user is the portal user here; the roleMappings entry names it the way the READMEs name
 * groups, and the REST checks below prove it was applied (a VIEWER could not create a project).
 */
function writeConfig(portal, ports) {
  const appUrl = `http://localhost:${ports.frontend}`;
  const backendUrl = `http://localhost:${ports.backend}`;
  fs.writeFileSync(
    path.join(portal, 'app-config.local.yaml'),
    `# Written by infra-delivery's scripts/verify-install.
app:
  baseUrl: ${appUrl}
backend:
  baseUrl: ${backendUrl}
  listen:
    port: ${ports.backend}
  cors:
    origin: ${appUrl}
infraDelivery:
  roleMappings:
    - entityRef: user:development/guest
      role: ADMIN
  defaultRole: VIEWER
  demo:
    enabled: true
catalog:
  providers:
    infraDelivery:
      schedule:
        frequency: { seconds: 10 }
        timeout: { minutes: 1 }
`,
  );
  // The frontend README's annotated component, as an adopter adds it to a catalog-info.yaml.
  fs.appendFileSync(
    path.join(portal, 'examples/entities.yaml'),
    `---\n${annotatedComponentYaml()}`,
  );
  addExampleTemplate(portal);
}

/**
 * The scaffolder module's example template, as its README says: the README's shell lines copy
 * it out of the installed package, and its location entries go into the `catalog.locations`
 * list of the portal's app-config.yaml, beside the template's own (a list in another config
 * file would replace that one).
 */
function addExampleTemplate(portal) {
  const blocks = codeBlocks(PACKAGE_DIRS.scaffolder);
  const copy = blocks.find(
    b =>
      b.lang === 'bash' &&
      b.code.includes('templates/infra-delivery-stack/template.yaml'),
  );
  assert(
    copy,
    `${PACKAGE_DIRS.scaffolder}/README.md has no lines copying the template`,
  );
  run('example-template', 'bash', ['-euc', copy.code], { cwd: portal });
  const location = blocks.find(
    b => b.lang === 'yaml' && /^ {2}locations:$/m.test(b.code),
  );
  assert(
    location,
    `${PACKAGE_DIRS.scaffolder}/README.md has no catalog.locations entry`,
  );
  const lines = location.code.split('\n');
  const entries = lines
    .slice(lines.indexOf('  locations:') + 1)
    .filter(line => line.trim() && !/^\s*#/.test(line));
  const file = path.join(portal, 'app-config.yaml');
  const config = fs.readFileSync(file, 'utf8');
  assert(
    /^ {2}locations:\n/m.test(config),
    "the portal's app-config.yaml has no catalog.locations",
  );
  fs.writeFileSync(
    file,
    config.replace(
      /^ {2}locations:\n/m,
      `  locations:\n${entries.join('\n')}\n`,
    ),
  );
}

async function guestToken(backendUrl) {
  const response = await http('POST', `${backendUrl}/api/auth/guest/refresh`);
  expectStatus(response, 200, 'guest sign-in');
  const token = response.json?.backstageIdentity?.token;
  assert(token, 'guest sign-in returned no token');
  return token;
}

async function catalogEntity(backendUrl, token, ref) {
  const [kind, rest] = ref.split(':');
  const [namespace, name] = rest.split('/');
  const response = await http(
    'GET',
    `${backendUrl}/api/catalog/entities/by-name/${kind}/${namespace}/${name}`,
    { token },
  );
  return response.status === 200 ? response.json : undefined;
}

async function backendChecks(backendUrl, tarballs) {
  const api = `${backendUrl}/api/infra-delivery`;
  await check('health: GET /api/infra-delivery/health', async () => {
    const response = await http('GET', `${api}/health`);
    expectStatus(response, 200, 'health');
    assert(response.json?.status === 'ok', `health said ${response.text}`);
  });

  const email = `verify-${Date.now()}@example.com`;
  const password = 'verify-install-password';
  let accessToken;
  await check('sign-up: POST /auth/signup', async () => {
    const response = await http('POST', `${api}/auth/signup`, {
      body: { data: { email, password } },
    });
    expectStatus(response, 201, 'signup');
  });
  await check('token: POST /auth/token', async () => {
    const response = await http('POST', `${api}/auth/token`, {
      body: { data: { email, password } },
    });
    expectStatus(response, 200, 'token');
    accessToken = response.json?.data?.accessToken;
    assert(accessToken, 'no data.accessToken');
  });
  await check(
    'project: POST then GET /projects with the access token',
    async () => {
      assert(accessToken, 'no access token');
      const created = await http('POST', `${api}/projects`, {
        token: accessToken,
        body: { data: { givenId: 'verify-signup', name: 'Verify sign-up' } },
      });
      expectStatus(created, 201, 'create project');
      const listed = await http('GET', `${api}/projects`, {
        token: accessToken,
      });
      expectStatus(listed, 200, 'list projects');
      assert(
        listed.json?.data?.some(p => p.givenId === 'verify-signup'),
        'the new project is not listed',
      );
    },
  );

  await check(
    'runner: npx @infra-delivery/runner --once with a service account\u2019s API key is listed, and stopped once done',
    async () => {
      assert(accessToken, 'no access token');
      const account = await http('POST', `${api}/service-accounts`, {
        token: accessToken,
        body: { data: { name: 'verify-install runner', role: 'MEMBER' } },
      });
      expectStatus(account, 201, 'create service account');
      const key = await http('POST', `${api}/api-keys`, {
        token: accessToken,
        body: {
          data: {
            name: 'verify-install runner',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: account.json.data.id,
          },
        },
      });
      expectStatus(key, 201, 'create API key');
      // `npx @infra-delivery/runner`, from the tarballs instead of the registry; the common
      // package beside it satisfies the runner's dependency on it.
      run(
        'runner',
        'npm',
        [
          'exec',
          '--yes',
          `--package=${tarballs.common.file}`,
          `--package=${tarballs.runner.file}`,
          '--',
          'infra-delivery-runner',
          '--url',
          api,
          '--runner-id',
          'verify-install',
          '--iac-binary',
          iacBinary(),
          '--once',
        ],
        {
          cwd: workDir,
          env: { INFRA_DELIVERY_RUNNER_TOKEN: key.json.data.key },
          timeoutMs: 5 * 60_000,
        },
      );
      const runners = await http('GET', `${api}/runners`, {
        token: accessToken,
      });
      expectStatus(runners, 200, 'list runners');
      const runner = runners.json?.data?.find(
        r => r.runnerId === 'verify-install',
      );
      assert(runner, 'the runner is not listed');
      // Done (--once), it signed off: the portal lists it as stopped.
      assert(
        runner.status === 'OFFLINE' && runner.signedOffAt,
        `the runner is ${runner.status}, signed off at ${runner.signedOffAt}`,
      );
    },
  );

  const guest = await guestToken(backendUrl).catch(error => {
    report(false, 'guest sign-in: POST /api/auth/guest/refresh', error.message);
    return undefined;
  });
  if (!guest) return;
  await check(
    'portal user: the guest (ADMIN by roleMappings) creates a project in the portal organization',
    async () => {
      const created = await http('POST', `${api}/projects`, {
        token: guest,
        body: { data: { givenId: 'verify-install', name: 'Verify install' } },
      });
      expectStatus(created, 201, 'create project as the guest');
    },
  );
  await check(
    'catalog: the module emits the project as system:default/infra-project-verify-install',
    () =>
      waitFor('the project in the catalog', 120_000, () =>
        catalogEntity(
          backendUrl,
          guest,
          'system:default/infra-project-verify-install',
        ),
      ).then(() => undefined),
  );
  const stackRef =
    'resource:default/stack-0193a8c0-0000-7000-8000-00000000d001';
  await check(`catalog: the demo stack is ${stackRef}`, () =>
    waitFor('the demo stack in the catalog', 60_000, async () => {
      const entity = await catalogEntity(backendUrl, guest, stackRef);
      return entity?.spec?.type === 'iac-stack';
    }).then(() => undefined),
  );
  await check(
    `catalog: the annotated component payments-api dependsOn ${stackRef}`,
    () =>
      waitFor('the dependsOn relation', 90_000, async () => {
        const entity = await catalogEntity(
          backendUrl,
          guest,
          'component:default/payments-api',
        );
        return entity?.relations?.some(
          r => r.type === 'dependsOn' && r.targetRef === stackRef,
        );
      }).then(() => undefined),
  );
  await check(
    'scaffolder: GET /api/scaffolder/v2/actions lists the actions',
    async () => {
      const response = await http(
        'GET',
        `${backendUrl}/api/scaffolder/v2/actions`,
        {
          token: guest,
        },
      );
      expectStatus(response, 200, 'actions');
      const ids = new Set((response.json ?? []).map(a => a.id));
      const missing = ACTION_IDS.filter(id => !ids.has(id));
      assert(missing.length === 0, `missing ${missing.join(', ')}`);
      return ACTION_IDS.join(', ');
    },
  );
}

/**
 * Whether a browser console message (or an uncaught error) comes from our packages: the code
 * that printed it, or the innermost frame of its stack (a React warning's component stack
 * starts at the component concerned), is in an `@infra-delivery/*` package. A warning of
 * Backstage's own components or of a library they use (`findDOMNode` in core-components'
 * Link, material-table's `defaultProps`), printed while one of our views renders them, names
 * that library first and is not ours. An uncaught error is ours wherever our code is on its
 * stack.
 */
function ourConsoleMessage({ text, source, uncaught }) {
  if (source.includes('/@infra-delivery/')) return true;
  // An error nobody caught, thrown wherever our code is on its stack.
  if (uncaught) return text.includes('/@infra-delivery/');
  const frame = text
    .split('\n')
    .map(line => line.trim())
    .find(line => /^at .*[(/]/.test(line) && !/^at (?:async )?\w*$/.test(line));
  return Boolean(frame?.includes('/@infra-delivery/'));
}

/**
 * Starts the portal's frontend dev server (`yarn workspace app start` with `args`), checks that
 * it answers on `url` and opens Chromium. Returns undefined without Chromium or when the server
 * does not answer; otherwise the browser, its page, `browserCheck` (a check whose failure leaves
 * a screenshot beside the logs) and `visibleText` (the visible elements showing exactly a text).
 */
async function openFrontend(portal, { name, label, args, url }) {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`skip frontend checks: no Chromium at ${CHROMIUM}`);
    return undefined;
  }
  const server = startServer(
    name,
    'yarn',
    ['workspace', 'app', 'start', ...args],
    portal,
  );
  const ready = await check(`${label}: the dev server answers on ${url}`, () =>
    waitFor(
      `the dev server (${name})`,
      5 * 60_000,
      async () => (await fetch(url)).ok,
      server.child,
    ).then(() => undefined),
  );
  if (!ready) return undefined;
  const { chromium } = require(require.resolve('playwright-core', {
    paths: [REPO],
  }));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  const browserCheck = (checkName, body) =>
    check(checkName, async () => {
      try {
        return await body();
      } catch (error) {
        const shot = path.join(
          workDir,
          'logs',
          `${checkName.replace(/\W+/g, '-')}.png`,
        );
        await page.screenshot({ path: shot }).catch(() => undefined);
        throw error;
      }
    });
  const visibleText = text =>
    page.getByText(text, { exact: true }).filter({ visible: true });
  return { browser, page, browserCheck, visibleText };
}

/**
 * Opens `url` in a browser not signed in yet: the template's sign-in page comes first, with the
 * guest provider (the legacy template's signs the guest in by itself, `auto`); then waits for
 * `shown`.
 */
async function signInAndOpen(page, url, shown) {
  await page.goto(url);
  const enter = page.getByRole('button', { name: 'Enter' });
  await shown.or(enter).first().waitFor();
  if (await enter.isVisible()) await enter.click();
  await shown.waitFor();
}

async function frontendChecks(portal, frontendUrl) {
  const opened = await openFrontend(portal, {
    name: 'frontend',
    label: 'frontend',
    args: [],
    url: frontendUrl,
  });
  if (!opened) return;
  const { browser, page, browserCheck, visibleText } = opened;
  // What the pages print as errors and warnings (React's among them) and what they throw.
  const consoleMessages = [];
  page.on('console', message => {
    if (message.type() === 'error' || message.type() === 'warning') {
      consoleMessages.push({
        page: page.url(),
        text: message.text(),
        source: message.location()?.url ?? '',
      });
    }
  });
  page.on('pageerror', error => {
    consoleMessages.push({
      page: page.url(),
      text: error.stack ?? error.message,
      source: '',
      uncaught: true,
    });
  });
  try {
    const entityUrl = `${frontendUrl}/catalog/default/component/payments-api`;
    const signedIn = await browserCheck(
      'frontend: the guest signs in and the annotated component opens',
      async () => {
        await signInAndOpen(
          page,
          entityUrl,
          page.getByText('payments-api').first(),
        );
      },
    );
    if (!signedIn) return;
    // The entity page's tabs are links of its navigation; the legacy EntityLayout's are tabs.
    const entityTab = name =>
      page.getByRole(LEGACY_APP ? 'tab' : 'link', { name, exact: true });
    const tabs = ['Stacks', 'Pipeline runs', 'Deployments', 'Metrics'];
    await browserCheck(
      `frontend: payments-api has the tabs ${tabs.join(', ')}`,
      async () => {
        for (const tab of tabs) {
          await entityTab(tab).waitFor();
        }
      },
    );
    await browserCheck(
      'frontend: the Stacks tab lists the demo stacks Monitoring and Network',
      async () => {
        await entityTab('Stacks').click();
        await page.waitForURL(/\/infra-stacks$/);
        await visibleText('Monitoring').waitFor();
        await visibleText('Network').waitFor();
      },
    );
    await browserCheck(
      "frontend: the demo project's system has a Stacks tab listing its stacks",
      async () => {
        await page.goto(
          `${frontendUrl}/catalog/default/system/infra-project-payments`,
        );
        await entityTab('Stacks').click();
        await page.waitForURL(/\/infra-stacks$/);
        // Visible ones: while the tab's content loads, React keeps the Overview tab's (whose
        // Infrastructure card names the same stacks) in the page, hidden, and a second match
        // broke the locator's strict mode.
        await visibleText('Monitoring').waitFor();
        await visibleText('Network').waitFor();
      },
    );
    await browserCheck(
      'frontend: the Infrastructure page opens on its Overview',
      async () => {
        await page.goto(`${frontendUrl}/infra-delivery`);
        await page.getByText('Failed lately').first().waitFor();
      },
    );
    await browserCheck(
      "frontend: the stack template's form lists the projects and their environments by name",
      async () => {
        await page.goto(
          `${frontendUrl}/create/templates/default/infra-delivery-stack`,
        );
        await page.getByLabel(/^Project/).click();
        await page.getByRole('option', { name: 'Payments (payments)' }).click();
        await page.getByLabel(/^Environment/).click();
        await page
          .getByRole('option', { name: 'Production (production)' })
          .waitFor();
      },
    );
    await check(
      'frontend: the browser console has no error or warning of our packages',
      async () => {
        const ours = consoleMessages.filter(ourConsoleMessage);
        const summary = list =>
          [...new Set(list.map(m => m.text.split('\n')[0].slice(0, 120)))]
            .map(text => `"${text}"`)
            .join(', ');
        assert(
          ours.length === 0,
          `${ours.length}: ${ours
            .map(m => `${m.page}: ${m.text.split('\n').slice(0, 3).join(' ')}`)
            .join(' | ')}`,
        );
        const others = consoleMessages.length - ours.length;
        return `none; ${others} of other packages${
          others ? `: ${summary(consoleMessages)}` : ''
        }`;
      },
    );
  } finally {
    await browser.close();
  }
}

/** The backend README's start-up for several instances: its import line and its call. */
function startOneInstanceAtATimeLines() {
  const block = codeBlocks(PACKAGE_DIRS.backend).find(
    b =>
      b.lang === 'ts' && b.code.includes('startOneInstanceAtATime(backend);'),
  );
  assert(
    block,
    `${PACKAGE_DIRS.backend}/README.md has no startOneInstanceAtATime(backend) example`,
  );
  const importLine = block.code
    .split('\n')
    .find(line => line.includes('import { startOneInstanceAtATime }'));
  assert(importLine, 'its example imports no startOneInstanceAtATime');
  return { importLine, call: 'startOneInstanceAtATime(backend);' };
}

/**
 * The portal again on PostgreSQL, every plugin in one database (`pluginDivisionMode: schema`,
 * as many companies run Backstage) and started as the backend README says for several
 * instances: a new database, so the plugins' first migrations (the catalog's
 * `CREATE INDEX CONCURRENTLY` among them) run inside the start-up lock.
 */
async function postgresSchemaChecks(portal, backendUrl, frontendPort) {
  const { Client } = require('pg');
  const url = new URL(
    spawnSync(path.join(REPO, 'scripts/ensure-postgres.sh'), {
      encoding: 'utf8',
    }).stdout.trim(),
  );
  const database = `verify_install_${process.pid}`;
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const index = path.join(portal, 'packages/backend/src/index.ts');
    const { importLine, call } = startOneInstanceAtATimeLines();
    // The README's policy that denies by default, in place of the template's allow-all one.
    const allowAll =
      /backend\.add\(\s*import\('@backstage\/plugin-permission-backend-module-allow-all-policy'\),?\s*\);/;
    const source = fs.readFileSync(index, 'utf8');
    assert(allowAll.test(source), 'index.ts adds no allow-all policy');
    fs.writeFileSync(
      index,
      `${importLine}\n${source
        .replace('backend.start();', call)
        .replace(allowAll, denyByDefaultPolicy().add)}`,
    );
    fs.writeFileSync(
      path.join(portal, 'app-config.postgres.yaml'),
      `# Written by infra-delivery's scripts/verify-install.
app:
  baseUrl: http://localhost:${frontendPort}${SUB_PATH}
backend:
  database:
    client: pg
    pluginDivisionMode: schema
    connection:
      host: ${url.hostname}
      port: ${url.port || 5432}
      user: ${decodeURIComponent(url.username)}
      password: ${decodeURIComponent(url.password)}
      database: ${database}
`,
    );
    const configs = [
      'app-config.yaml',
      'app-config.local.yaml',
      'app-config.postgres.yaml',
    ].flatMap(file => ['--config', `../../${file}`]);
    const backend = startServer(
      'backend-postgres',
      'yarn',
      ['workspace', 'backend', 'start', ...configs],
      portal,
    );
    const up = await check(
      'postgres: the backend starts through startOneInstanceAtATime on PostgreSQL with pluginDivisionMode: schema',
      () =>
        waitFor(
          'the backend on PostgreSQL',
          4 * 60_000,
          async () =>
            (
              await fetch(`${backendUrl}/.backstage/health/v1/readiness`)
            ).ok,
          backend.child,
        ).then(() => undefined),
    );
    if (up) {
      await check(
        'postgres: the plugin serves the demo stacks from its own schema',
        async () => {
          const token = await guestToken(backendUrl);
          const stacks = await http(
            'GET',
            `${backendUrl}/api/infra-delivery/stacks`,
            { token },
          );
          expectStatus(stacks, 200, 'list stacks');
          assert(stacks.json?.data?.length > 0, 'no demo stacks');
          const probe = new Client({
            connectionString: Object.assign(new URL(url), {
              pathname: `/${database}`,
            }).toString(),
          });
          await probe.connect();
          try {
            const { rows } = await probe.query(
              `SELECT count(*)::int AS n FROM "infra-delivery".stacks`,
            );
            assert(rows[0].n > 0, 'the infra-delivery schema has no stacks');
          } finally {
            await probe.end();
          }
        },
      );
      await check(
        'permissions: the deny-by-default policy refuses the guest (ADMIN by roleMappings) a project with 403 PERMISSION_DENIED',
        async () => {
          const token = await guestToken(backendUrl);
          const created = await http(
            'POST',
            `${backendUrl}/api/infra-delivery/projects`,
            {
              token,
              body: { data: { givenId: 'denied-by-policy', name: 'Denied' } },
            },
          );
          expectStatus(created, 403, 'create a project');
          assert(
            created.json?.code === 'InfraDelivery:Auth:PERMISSION_DENIED' &&
              created.json?.metadata?.permission ===
                'infra-delivery.resource.write',
            `answered ${JSON.stringify(created.json)}`,
          );
        },
      );
      await subPathFrontendChecks(
        portal,
        configs,
        `http://localhost:${frontendPort}${SUB_PATH}`,
      );
    }
  } finally {
    await stopServers();
    await admin
      .query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
      .catch(() => undefined);
    await admin.end();
  }
}

/**
 * The company portal's frontend: served under a sub-path (`app.baseUrl` …/portal) with the
 * policy that denies by default (reads allowed). The entity tab and the Infrastructure page open
 * under the sub-path and link under it, and the guest, an ADMIN by roleMappings whom the policy
 * does not allow `infra-delivery.administer`, is offered no member invitation.
 */
async function subPathFrontendChecks(portal, configs, appUrl) {
  const opened = await openFrontend(portal, {
    name: 'frontend-sub-path',
    label: 'sub-path',
    args: configs,
    url: appUrl,
  });
  if (!opened) return;
  const { browser, page, browserCheck, visibleText } = opened;
  try {
    const signedIn = await browserCheck(
      `sub-path: the Stacks tab of payments-api lists the demo stacks under ${SUB_PATH}`,
      async () => {
        await signInAndOpen(
          page,
          `${appUrl}/catalog/default/component/payments-api/infra-stacks`,
          visibleText('Monitoring'),
        );
        await visibleText('Network').waitFor();
      },
    );
    if (!signedIn) return;
    await browserCheck(
      `sub-path: the Infrastructure page opens under ${SUB_PATH} and its tabs link under it`,
      async () => {
        await page.goto(`${appUrl}/infra-delivery`);
        await page.getByText('Failed lately').first().waitFor();
        const href = await page
          .getByRole('tab', { name: 'Organization', exact: true })
          .or(page.getByRole('link', { name: 'Organization', exact: true }))
          .first()
          .getAttribute('href');
        assert(
          href === `${SUB_PATH}/infra-delivery/organization`,
          `the Organization tab links to ${href}`,
        );
      },
    );
    await browserCheck(
      'permissions: with infra-delivery.administer denied, the Organization tab offers the guest (ADMIN) no invitation',
      async () => {
        await page.goto(`${appUrl}/infra-delivery/organization`);
        await visibleText('development/guest').first().waitFor();
        // The role and the policy's decision are asked beside the members list.
        await page.waitForTimeout(3000);
        const invite = await page
          .getByRole('button', { name: /invite member/i })
          .count();
        assert(invite === 0, 'it offers "Invite member"');
      },
    );
  } finally {
    await browser.close();
  }
}

async function main() {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-verify-'));
  fs.mkdirSync(path.join(workDir, 'logs'));
  const portal = path.join(workDir, 'portal');
  progress(`working in ${workDir}`);

  const ports = { backend: await freePort(), frontend: await freePort() };
  const backendUrl = `http://localhost:${ports.backend}`;
  let tarballs;
  let portalVersions;
  const setup = [
    [
      'pack: scripts/pack-packages',
      () => {
        tarballs = packTarballs();
      },
    ],
    [
      `portal: @backstage/create-app@${CREATE_APP_VERSION} --skip-install`,
      () => {
        createPortal(portal);
        const pinned = pinReleaseVersions(portal, !LATEST_PORTAL);
        // The portal as its adopter has it before adding our packages: its lockfile. The new
        // portal has none yet, and Yarn refuses to write one where CI is set (as .ci/run and
        // many pipelines set it).
        run(
          'yarn-install-portal',
          'yarn',
          ['install', '--mode=update-lockfile'],
          {
            cwd: portal,
            env: { YARN_ENABLE_IMMUTABLE_INSTALLS: 'false' },
            timeoutMs: 20 * 60_000,
          },
        );
        portalVersions = backstageVersions(path.join(portal, 'yarn.lock'));
        return `${pinned} @backstage/* ranges at their 1.55 versions, ${
          portalVersions.size
        } @backstage/* packages locked${
          WITHOUT_NOTIFICATIONS ? ', without the notifications plugins' : ''
        }`;
      },
    ],
    [
      'install: the READMEs\u2019 yarn add lines, tarballs through resolutions',
      () => {
        addPackages(portal, tarballs);
        // The portal's lockfile stays as it was: Yarn resolves only what our packages add.
        run('yarn-install', 'yarn', ['install'], {
          cwd: portal,
          env: { YARN_ENABLE_IMMUTABLE_INSTALLS: 'false' },
          timeoutMs: 20 * 60_000,
        });
      },
    ],
    [
      'install: the packages bring no second copy of a Backstage package the portal has',
      () => {
        const copies = secondCopies(
          portalVersions,
          backstageVersions(path.join(portal, 'yarn.lock')),
        );
        assert(copies.length === 0, copies.join('; '));
        const added = addedPackages(
          portalVersions,
          backstageVersions(path.join(portal, 'yarn.lock')),
        );
        return `none; new to the portal: ${added.join(', ') || 'nothing'}`;
      },
      // Copies are a failure, but the portal may still work with them: go on and see.
      { goOn: true },
    ],
    [
      'install: Yarn finds every peer dependency our packages bring met',
      () => {
        const unmet = unmetPeerRequirements(portal);
        assert(unmet.length === 0, unmet.join('; '));
      },
      { goOn: true },
    ],
    [
      'install: the packages share the portal\u2019s copies of the Backstage packages',
      () => {
        const nested = Object.values(tarballs).flatMap(({ name }) => {
          const dir = path.join(
            portal,
            'node_modules',
            name,
            'node_modules',
            '@backstage',
          );
          return fs.existsSync(dir)
            ? fs
                .readdirSync(dir)
                .map(dep => `${name} has its own @backstage/${dep}`)
            : [];
        });
        assert(nested.length === 0, nested.join('; '));
      },
      { goOn: true },
    ],
    [
      'wire: backend.add lines from the READMEs, config, the annotated component, the client and policy examples',
      () => {
        wireBackend(portal);
        if (LEGACY_APP) wireLegacyApp(portal);
        writeConfig(portal, ports);
        writeClientExample(portal);
        writePolicyExample(portal);
      },
    ],
    [
      'type check: yarn tsc in the portal, with the common README\u2019s client example and the backend README\u2019s policies',
      () => {
        run('tsc', 'yarn', ['tsc'], { cwd: portal });
      },
    ],
    [
      'lint: the READMEs\u2019 examples pass packages/backend\u2019s lint, every import declared by the READMEs\u2019 yarn add lines',
      () => {
        run(
          'lint-examples',
          'yarn',
          [
            'backstage-cli',
            'package',
            'lint',
            'src/infraDeliveryClientExample.ts',
            'src/infraDeliveryPolicyExample.ts',
            `src/${denyByDefaultPolicy().file}`,
          ],
          { cwd: path.join(portal, 'packages/backend') },
        );
      },
      { goOn: true },
    ],
  ];
  for (const [name, step, options] of setup) {
    progress(name);
    if (!(await check(name, step)) && !options?.goOn) return;
  }

  progress(`starting the backend on ${backendUrl}`);
  const backend = startServer(
    'backend',
    'yarn',
    ['workspace', 'backend', 'start'],
    portal,
  );
  const up = await check(
    `backend: starts and is ready on port ${ports.backend}`,
    () =>
      waitFor(
        'the backend',
        5 * 60_000,
        async () =>
          (
            await fetch(`${backendUrl}/.backstage/health/v1/readiness`)
          ).ok,
        backend.child,
      ).then(() => undefined),
  );
  if (!up) {
    process.stderr.write(
      `${fs
        .readFileSync(backend.log, 'utf8')
        .split('\n')
        .slice(-30)
        .join('\n')}\n`,
    );
    return;
  }
  await backendChecks(backendUrl, tarballs);
  progress('starting the frontend');
  await frontendChecks(portal, `http://localhost:${ports.frontend}`);
  await stopServers();
  progress('restarting the backend on PostgreSQL (pluginDivisionMode: schema)');
  await postgresSchemaChecks(portal, backendUrl, ports.frontend);
}

async function finish() {
  await stopServers();
  progress(`took ${seconds(started)}`);
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exitCode = results.failed === 0 && results.passed > 0 ? 0 : 1;
  // After the verdict: removing the portal's 2 GB of node_modules takes a minute or two.
  if (workDir && !keep && results.failed === 0) {
    progress(`removing ${workDir}`);
    fs.rmSync(workDir, { recursive: true, force: true });
  } else if (workDir) {
    progress(`the portal and its logs are kept in ${workDir}`);
  }
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    stopServers().finally(() => process.exit(code));
  });
}

main()
  .catch(error =>
    report(false, 'verify-install', error?.stack ?? String(error)),
  )
  .finally(finish);
