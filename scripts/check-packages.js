#!/usr/bin/env node
/*
 * Asserts what each packed tarball holds, as npm would publish it: run by scripts/check-packages
 * on the tarballs of scripts/pack-packages.
 *
 *   node scripts/check-packages.js --results FILE TARBALL...
 *
 * For every tarball: a package.json that is publishable (public, Apache-2.0, no `workspace:`
 * range left, no runtime dependency on a Backstage plugin rather than its libraries, a description and keywords, `backstage` metadata with the plugin id, its
 * packages and the feature the plugin exports), `main`/`types`/`module`/`bin` naming files
 * that are in the tarball, a non-empty dist/, README (without links npmjs.com cannot
 * resolve, see CONTRIBUTING.md) and LICENSE,
 * no sources, tests or test utilities, and the files the package reads at run time from its
 * own folder (the backend's migrations and demo plans, the common package's openapi.json, the
 * configuration schema of packages that declare one), and that the package's type-level tests
 * (`*.test-d.ts` files under src/) compile against its shipped declarations. Prints one line
 * per failed assertion and a summary; writes {"passed", "failed", "failures"} to FILE for
 * scripts/test-summary.js. Exit status 0 when every assertion held.
 */
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..');
const RUNTIME_DEPENDENCY_FIELDS = [
  'dependencies',
  'peerDependencies',
  'optionalDependencies',
];
/** Roles of packages that belong to a plugin and must say which. */
const PLUGIN_ROLES = new Set([
  'frontend-plugin',
  'backend-plugin',
  'common-library',
  'web-library',
  'node-library',
  'backend-plugin-module',
  'frontend-plugin-module',
]);

/** Roles whose main entry point's default export is a plugin or module. */
const FEATURE_ROLES = new Set([
  'frontend-plugin',
  'backend-plugin',
  'backend-plugin-module',
]);

/**
 * Set-ups a package's README must cover, because npm users see only the README: a heading
 * (any level from ##) and what the section must name for the set-up to be done from it alone.
 */
const README_SECTIONS = {
  '@infra-delivery/plugin-infra-delivery-backend': [
    {
      heading: 'Git-driven runs',
      names: [
        'webhookSecret',
        '/api/infra-delivery/webhooks/github/',
        'gitTrigger',
        'Push, Pull request',
      ],
    },
  ],
};

let passed = 0;
const failures = [];

function expect(condition, pkg, what) {
  if (condition) {
    passed += 1;
  } else {
    failures.push(`${pkg}: ${what}`);
    console.log(`FAIL ${pkg}: ${what}`);
  }
}

/** The repository's workspaces by package name. */
function workspaces() {
  const byName = new Map();
  for (const parent of ['plugins', 'packages']) {
    for (const dir of fs.readdirSync(path.join(REPO, parent))) {
      const file = path.join(REPO, parent, dir, 'package.json');
      if (fs.existsSync(file)) {
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
        byName.set(pkg.name, path.join(REPO, parent, dir));
      }
    }
  }
  return byName;
}

/** Every file path under dir, relative to it, with forward slashes. */
function filesUnder(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), rel)
      : [rel];
  });
}

function normal(file) {
  return path.posix.normalize(file).replace(/^\.\//, '');
}

function checkTarball(tarball, sources) {
  const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'check-packages-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    const root = path.join(unpacked, 'package');
    const files = new Set(filesUnder(root));
    const has = file => files.has(normal(file));
    const nonEmpty = file =>
      has(file) && fs.statSync(path.join(root, file)).size > 0;
    const manifest = JSON.parse(
      fs.readFileSync(path.join(root, 'package.json'), 'utf8'),
    );
    const name = manifest.name ?? path.basename(tarball);
    const source = sources.get(name);
    expect(source, name, 'is a package of this repository');
    if (!source) return;
    const sourceManifest = JSON.parse(
      fs.readFileSync(path.join(source, 'package.json'), 'utf8'),
    );

    // Publishable as it is.
    expect(manifest.private !== true, name, 'is not private');
    expect(manifest.license === 'Apache-2.0', name, 'license is Apache-2.0');
    expect(
      manifest.version === sourceManifest.version,
      name,
      `version is the workspace's ${sourceManifest.version}`,
    );
    for (const field of [...RUNTIME_DEPENDENCY_FIELDS, 'devDependencies']) {
      const left = Object.entries(manifest[field] ?? {}).filter(([, range]) =>
        String(range).startsWith('workspace:'),
      );
      expect(
        left.length === 0,
        name,
        `no workspace: range in ${field}${
          left.length ? ` (${left.map(([dep]) => dep).join(', ')})` : ''
        }`,
      );
    }

    // Backstage plugins' libraries, never a plugin itself: a plugin package brings its
    // whole dependency tree, which in a portal without that plugin resolves to the newest
    // release its ranges allow (once `@backstage/plugin-notifications` of the frontend
    // plugin: its 1.56 release brought catalog-react 4.0 and five more second copies into a
    // 1.55 portal without the notifications plugins).
    const plugins = RUNTIME_DEPENDENCY_FIELDS.flatMap(field =>
      Object.keys(manifest[field] ?? {}).filter(
        dep =>
          /^@backstage\/plugin-/.test(dep) &&
          !/-(react|node|common)$/.test(dep),
      ),
    );
    expect(
      plugins.length === 0,
      name,
      `depends on Backstage plugins' libraries (-react, -node, -common) only, not on a plugin${
        plugins.length ? ` (${plugins.join(', ')})` : ''
      }`,
    );

    // Entry points name files that are shipped.
    expect(
      typeof manifest.main === 'string' && manifest.main.startsWith('dist/'),
      name,
      `main points into dist/ (${manifest.main})`,
    );
    for (const field of ['main', 'types', 'module']) {
      if (manifest[field] !== undefined) {
        expect(
          nonEmpty(manifest[field]),
          name,
          `${field} ${manifest[field]} is in the tarball and not empty`,
        );
      }
    }
    expect(manifest.types !== undefined, name, 'declares its types');
    for (const [command, file] of Object.entries(manifest.bin ?? {})) {
      expect(
        nonEmpty(file),
        name,
        `bin ${command} (${file}) is in the tarball`,
      );
    }
    const dist = [...files].filter(file => file.startsWith('dist/'));
    expect(
      dist.some(file => /\.(c|m)?js$/.test(file)),
      name,
      'dist/ holds built JavaScript',
    );

    // What every published package carries, and what it must not.
    expect(nonEmpty('README.md'), name, 'README.md is shipped');
    if (has('README.md')) {
      const relative = relativeLinks(
        fs.readFileSync(path.join(root, 'README.md'), 'utf8'),
      );
      expect(
        relative.length === 0,
        name,
        `README.md has no relative link or image, which npmjs.com cannot resolve${
          relative.length
            ? ` (${relative
                .map(link => `line ${link.line}: ${link.target}`)
                .join('; ')})`
            : ''
        }`,
      );
      const unshipped = repositoryPaths(
        fs.readFileSync(path.join(root, 'README.md'), 'utf8'),
      ).filter(({ target }) => !has(target));
      expect(
        unshipped.length === 0,
        name,
        `README.md names no file of this repository the package does not ship${
          unshipped.length
            ? ` (${unshipped
                .map(({ line, target }) => `line ${line}: ${target}`)
                .join('; ')})`
            : ''
        }`,
      );
      const missingFiles = packageFilesNamed(
        fs.readFileSync(path.join(root, 'README.md'), 'utf8'),
        name,
        source,
      ).filter(({ target }) => !has(target));
      expect(
        missingFiles.length === 0,
        name,
        `README.md names no file of the package that its tarball lacks${
          missingFiles.length
            ? ` (${missingFiles
                .map(({ line, target }) => `line ${line}: ${target}`)
                .join('; ')})`
            : ''
        }`,
      );
      for (const { heading, names } of README_SECTIONS[name] ?? []) {
        const section = readmeSection(
          fs.readFileSync(path.join(root, 'README.md'), 'utf8'),
          heading,
        );
        const missing = names.filter(text => !section?.includes(text));
        expect(
          section !== undefined && missing.length === 0,
          name,
          `README.md has a "${heading}" section naming ${names.join(', ')}${
            section === undefined
              ? ' (no such heading)'
              : missing.length
              ? ` (missing: ${missing.join(', ')})`
              : ''
          }`,
        );
      }
    }
    expect(
      [...files].some(file => /^LICEN[CS]E(\.md|\.txt)?$/i.test(file)),
      name,
      'LICENSE is shipped',
    );
    // What the shipped code imports, it declares. Yarn's node_modules hoisting finds an
    // undeclared package through another package's dependency, at whatever version was
    // hoisted; pnpm and Plug'n'Play find nothing. Declarations count too: an app's `tsc`
    // reads the types of our exports (the frontend plugin's extensions name
    // `@backstage/filter-predicates`' FilterPredicate).
    const declared = new Set([
      name,
      ...RUNTIME_DEPENDENCY_FIELDS.flatMap(field =>
        Object.keys(manifest[field] ?? {}),
      ),
    ]);
    for (const kind of ['JavaScript', 'declarations']) {
      const undeclared = new Set();
      for (const file of files) {
        const isDeclaration = file.endsWith('.d.ts');
        if (
          !file.startsWith('dist/') ||
          (kind === 'declarations'
            ? !isDeclaration
            : isDeclaration || !/\.(c|m)?js$/.test(file))
        ) {
          continue;
        }
        for (const specifier of bareImports(
          fs.readFileSync(path.join(root, file), 'utf8'),
        )) {
          if (!declared.has(specifier)) undeclared.add(specifier);
        }
      }
      expect(
        undeclared.size === 0,
        name,
        `the ${kind} in dist/ import only declared dependencies${
          undeclared.size ? ` (${[...undeclared].sort().join(', ')})` : ''
        }`,
      );
    }

    const forbidden = [...files].filter(
      file =>
        file.startsWith('src/') ||
        /(^|\/)__testUtils__\//.test(file) ||
        /(^|\/)__fixtures__\//.test(file) ||
        /\.test\.(c|m)?[jt]sx?$/.test(file) ||
        /(^|\/)setupTests\.[jt]s$/.test(file),
    );
    expect(
      forbidden.length === 0,
      name,
      `no sources, tests or test utilities shipped${
        forbidden.length ? ` (${forbidden.slice(0, 3).join(', ')}…)` : ''
      }`,
    );

    // What npm shows and searches.
    expect(
      typeof manifest.description === 'string' &&
        manifest.description.trim() !== '',
      name,
      'has a description',
    );
    const keywords = manifest.keywords ?? [];
    expect(keywords.includes('backstage'), name, 'keywords include backstage');
    // Without a public address there is no homepage, bugs or repository to name; an address
    // given must be one a browser opens.
    for (const field of ['homepage', 'bugs', 'repository']) {
      const value = manifest[field];
      if (value === undefined) continue;
      const url = typeof value === 'string' ? value : value.url;
      expect(
        /^(https:\/\/|git\+https:\/\/)/.test(url ?? ''),
        name,
        `${field} is an https address (${url})`,
      );
    }

    // Backstage's package metadata.
    const backstage = manifest.backstage ?? {};
    expect(backstage.role, name, 'backstage.role is set');
    if (backstage.pluginId) {
      // npm's search term for Backstage plugins; the runner, a command, belongs to no plugin.
      expect(
        keywords.includes('backstage-plugin'),
        name,
        'keywords include backstage-plugin',
      );
    }
    if (FEATURE_ROLES.has(backstage.role)) {
      // Written by `backstage-cli package prepack`; app and backend feature discovery read it.
      expect(
        backstage.features?.['.'],
        name,
        'backstage.features names the feature its main entry point exports',
      );
    }
    if (PLUGIN_ROLES.has(backstage.role) && backstage.role !== 'node-library') {
      expect(backstage.pluginId, name, 'backstage.pluginId is set');
      if (backstage.role.endsWith('-module')) {
        expect(
          backstage.pluginPackage,
          name,
          'backstage.pluginPackage names the plugin it extends',
        );
      } else {
        expect(
          backstage.pluginPackages?.includes(name),
          name,
          'backstage.pluginPackages lists the package itself',
        );
        for (const sibling of backstage.pluginPackages ?? []) {
          expect(
            sources.has(sibling),
            name,
            `backstage.pluginPackages entry ${sibling} is a package of this repository`,
          );
        }
      }
    }

    // Files the package reads from its own folder at run time.
    if (sourceManifest.configSchema) {
      expect(
        nonEmpty('config.schema.json') &&
          manifest.configSchema === 'config.schema.json',
        name,
        'config.schema.json is shipped and named by configSchema',
      );
      if (has('config.schema.json')) {
        const schema = JSON.parse(
          fs.readFileSync(path.join(root, 'config.schema.json'), 'utf8'),
        );
        expect(
          Object.keys(schema.properties ?? {}).length > 0,
          name,
          'config.schema.json describes configuration keys',
        );
        // A word starting with @ after a space in a doc comment of config.d.ts (`npx
        // @infra-delivery/runner`) is read as a JSDoc tag: the key's description ends
        // there, inside its code span, and config:docs shows the stump.
        const cut = schemaDescriptions(schema).filter(
          ({ description }) => (description.match(/`/g) ?? []).length % 2 === 1,
        );
        expect(
          cut.length === 0,
          name,
          `config.schema.json descriptions end with their code spans closed${
            cut.length
              ? ` (${cut
                  .map(
                    ({ key, description }) =>
                      `${key}: …${description.slice(-40)}`,
                  )
                  .join('; ')})`
              : ''
          }`,
        );
      }
    }
    for (const folder of ['migrations', 'demo', 'templates']) {
      const sourceFolder = path.join(source, folder);
      if (!fs.existsSync(sourceFolder)) continue;
      expect(
        (sourceManifest.files ?? []).includes(folder),
        name,
        `files lists ${folder}/`,
      );
      for (const file of filesUnder(sourceFolder)) {
        expect(has(`${folder}/${file}`), name, `${folder}/${file} is shipped`);
      }
    }
    if (fs.existsSync(path.join(source, 'openapi.json'))) {
      expect(
        has('openapi.json') &&
          fs
            .readFileSync(path.join(root, 'openapi.json'))
            .equals(fs.readFileSync(path.join(source, 'openapi.json'))),
        name,
        'openapi.json is shipped as in the repository',
      );
    }

    // Type-level tests compile against the shipped declarations as an adopter's code does.
    const typeTests = filesUnder(path.join(source, 'src')).filter(file =>
      file.endsWith('.test-d.ts'),
    );
    if (typeTests.length > 0) {
      const errors = compileAgainstDeclarations(
        root,
        manifest,
        source,
        typeTests.map(file => path.join(source, 'src', file)),
      );
      expect(
        errors === '',
        name,
        `its type tests (${typeTests.join(
          ', ',
        )}) compile against the shipped declarations${
          errors ? `:\n${errors}` : ''
        }`,
      );
    }
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
}

/**
 * The text of a Markdown document's section whose heading (level 2 or deeper) starts with
 * `heading`, up to the next heading of the same or a higher level; undefined without one.
 */
function readmeSection(markdown, heading) {
  const lines = markdown.split('\n');
  let fence = false;
  let level;
  const body = [];
  for (const line of lines) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) fence = !fence;
    const match = fence ? null : /^(#{2,6})\s+(.*)$/.exec(line);
    if (level !== undefined) {
      if (match && match[1].length <= level) break;
      body.push(line);
    } else if (match && match[2].startsWith(heading)) {
      level = match[1].length;
    }
  }
  return level === undefined ? undefined : body.join('\n');
}

/**
 * The links and images of a Markdown document that point at a relative URL, with their line
 * numbers. npmjs.com shows a package's README without the package's files and resolves a
 * relative URL only against the package's `repository` field, which these packages do not
 * have: such a link (`../infra-delivery-backend/README.md`, `./config.d.ts`, a screenshot)
 * is dead there. In-page anchors (`#configuration`) work on npm and are allowed. Code blocks
 * and code spans are skipped: a README may show Markdown or paths in examples.
 */
function relativeLinks(markdown) {
  const blank = text => text.replace(/[^\n]/g, ' ');
  const prose = markdown
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, blank)
    .replace(/(`+)[^`][\s\S]*?\1/g, blank);
  const patterns = [
    // [text](target) and ![alt](target), the text possibly over several lines
    /\]\(\s*<?([^\s)>]+)/g,
    // [label]: target
    /^ {0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)/gm,
    // <a href="…">, <img src="…">
    /\b(?:href|src)\s*=\s*["']?([^"'\s>]+)/gi,
  ];
  const found = [];
  for (const pattern of patterns) {
    for (const match of prose.matchAll(pattern)) {
      const target = match[1];
      const absolute =
        /^[a-z][a-z0-9+.-]*:/i.test(target) || /^\/\//.test(target);
      if (!absolute && !target.startsWith('#')) {
        const line = prose.slice(0, match.index).split('\n').length;
        found.push({ line, target });
      }
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/**
 * The code spans of a Markdown document's prose that name a path of this repository outside
 * the package (`src/routes/….test.ts`, `scripts/…`, `docs/…`, `examples/…`, `plugins/…`), with
 * their line numbers. An adopter reads the README on npmjs.com or in node_modules, where such a
 * path names nothing; `packages/app` and `packages/backend` are the adopter's own portal's.
 * Code blocks are skipped (their commands run in the adopter's portal).
 */
function repositoryPaths(markdown) {
  const blank = text => text.replace(/[^\n]/g, ' ');
  const prose = markdown.replace(
    /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm,
    blank,
  );
  const found = [];
  for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
    const target = match[1].replace(/^\.\//, '');
    if (
      /^(?:src|scripts|docs|examples|plugins|packages|\.changeset)\/\S*$/.test(
        target,
      ) &&
      !/^packages\/(?:app|backend)(?:\/|$)/.test(target)
    ) {
      const line = prose.slice(0, match.index).split('\n').length;
      found.push({ line, target });
    }
  }
  return found;
}

/**
 * The files of the package itself that its README names, with their line numbers: a path
 * under `node_modules/<the package>/` anywhere (an adopter's `cp` line included), and a code
 * span in the prose that is the name of a file at the root of the package's folder in this
 * repository (`config.d.ts`). The caller checks each against the tarball: `backstage-cli
 * package prepack` ships `config.schema.json` in place of `config.d.ts`, so a README that
 * sends adopters to `node_modules/…/config.d.ts` sends them to nothing.
 */
function packageFilesNamed(markdown, name, sourceDir) {
  const found = [];
  const lineOf = index => markdown.slice(0, index).split('\n').length;
  const prefix = `node_modules/${name}/`;
  for (let at = markdown.indexOf(prefix); at >= 0; ) {
    const rest = markdown.slice(at + prefix.length);
    const target = rest.match(/^[^\s`'"()<>;,]+/)?.[0]?.replace(/[.:]+$/, '');
    if (target) found.push({ line: lineOf(at), target });
    at = markdown.indexOf(prefix, at + prefix.length);
  }
  const rootFiles = new Set(
    fs
      .readdirSync(sourceDir, { withFileTypes: true })
      .filter(entry => entry.isFile())
      .map(entry => entry.name),
  );
  const blank = text => text.replace(/[^\n]/g, ' ');
  const prose = markdown.replace(
    /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm,
    blank,
  );
  for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
    const target = match[1].replace(/^\.\//, '');
    if (rootFiles.has(target))
      found.push({ line: lineOf(match.index), target });
  }
  return found;
}

/**
 * The packages a built file imports, by name (`@scope/name` or `name`): static and dynamic
 * imports, `export … from` and `require`. Relative paths and Node's built-in modules are left
 * out.
 */
function bareImports(code) {
  const builtins = new Set(require('node:module').builtinModules);
  const found = new Set();
  const patterns = [
    /^\s*(?:import|export)\b[^'"\n;]*?\bfrom\s*['"]([^'"\s]+)['"]/gm,
    /^\s*import\s*['"]([^'"\s]+)['"]/gm,
    /\b(?:require|import)\(\s*['"]([^'"\s]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      const pkg = specifier.startsWith('@')
        ? parts.slice(0, 2).join('/')
        : parts[0];
      if (!builtins.has(pkg)) found.add(pkg);
    }
  }
  return found;
}

/** Every description of a JSON schema, with the dotted key it describes. */
function schemaDescriptions(schema, key = '') {
  if (!schema || typeof schema !== 'object') return [];
  const own =
    typeof schema.description === 'string'
      ? [{ key: key || '(root)', description: schema.description }]
      : [];
  return [
    ...own,
    ...Object.entries(schema.properties ?? {}).flatMap(([name, value]) =>
      schemaDescriptions(value, key ? `${key}.${name}` : name),
    ),
    ...(schema.items ? schemaDescriptions(schema.items, `${key}[]`) : []),
    ...(schema.additionalProperties
      ? schemaDescriptions(schema.additionalProperties, `${key}.*`)
      : []),
  ];
}

/** The folder `dependency` resolves to from `dir`, as Node looks it up through node_modules. */
function resolveDependency(dependency, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', dependency);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (at === path.dirname(at)) return undefined;
  }
}

/**
 * Compiles the package's `*.test-d.ts` files (which import the package by its name) in a
 * project of their own, where the name resolves to the unpacked tarball, so to its dist/
 * declarations and not to the sources, with the compiler options of a Backstage app
 * (@backstage/cli's tsconfig, strict) and this repository's TypeScript. The declarations'
 * dependencies resolve as in the repository. Returns the compiler's errors, '' when none.
 */
function compileAgainstDeclarations(root, manifest, source, testFiles) {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'check-types-'));
  try {
    const link = (name, target) => {
      const at = path.join(project, 'node_modules', name);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.symlinkSync(target, at, 'dir');
    };
    // A copy, not a link: TypeScript resolves the declarations' imports from where they are.
    fs.cpSync(root, path.join(project, 'node_modules', manifest.name), {
      recursive: true,
    });
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const target = resolveDependency(dependency, source);
      if (target) link(dependency, target);
    }
    const files = testFiles.map(file => {
      const copy = path.join(project, path.basename(file));
      fs.copyFileSync(file, copy);
      return copy;
    });
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(
          REPO,
          'node_modules/@backstage/cli/config/tsconfig.json',
        ),
        compilerOptions: { noEmit: true, incremental: false, types: [] },
        files,
      }),
    );
    try {
      execFileSync(
        process.execPath,
        [
          path.join(REPO, 'node_modules/typescript/bin/tsc'),
          '-p',
          project,
          '--pretty',
          'false',
        ],
        { encoding: 'utf8', stdio: 'pipe' },
      );
      return '';
    } catch (error) {
      return (
        `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || String(error)
      );
    }
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}

function main() {
  const args = process.argv.slice(2);
  const resultsAt = args.indexOf('--results');
  const resultsFile = resultsAt >= 0 ? args[resultsAt + 1] : undefined;
  // Without --results, every argument is a tarball (resultsAt + 1 would drop the first).
  const tarballs = args.filter(
    (_, i) => resultsAt < 0 || (i !== resultsAt && i !== resultsAt + 1),
  );
  const sources = workspaces();
  const publishable = [...sources.entries()].filter(([, dir]) => {
    const pkg = JSON.parse(
      fs.readFileSync(path.join(dir, 'package.json'), 'utf8'),
    );
    return pkg.private !== true;
  });
  const packedNames = tarballs.map(tarball => {
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], {
        encoding: 'utf8',
      }),
    );
    return manifest.name;
  });
  for (const [name] of publishable) {
    expect(packedNames.includes(name), name, 'was packed');
  }
  for (const tarball of tarballs) {
    checkTarball(tarball, sources);
  }
  console.log(
    `package contents: ${passed} passed, ${failures.length} failed (${tarballs.length} tarballs)`,
  );
  if (resultsFile) {
    fs.writeFileSync(
      resultsFile,
      `${JSON.stringify(
        { tool: 'package-contents', passed, failed: failures.length, failures },
        null,
        2,
      )}\n`,
    );
  }
  process.exitCode = failures.length === 0 && tarballs.length > 0 ? 0 : 1;
}

main();
