import fs from 'node:fs';
import path from 'node:path';
import * as plugin from './plugin';
import { LEGACY_TAB_PATHS } from './components/LegacyInfrastructurePage';

/*
 * The README is what an adopter installs the plugin by: the extensions it lists for the new
 * frontend system and the Infrastructure page's tabs it names for the legacy one must be the
 * plugin's. (It once left out the Projects tab, where the backend README sends people to
 * create their first project.)
 */
const readme = fs.readFileSync(
  path.resolve(__dirname, '..', 'README.md'),
  'utf8',
);

type ExtensionDefinitionLike = {
  $$type: string;
  kind?: string;
  name?: string;
};

function extensionIds() {
  return (Object.values(plugin) as unknown[])
    .filter(
      (value): value is ExtensionDefinitionLike =>
        typeof value === 'object' &&
        value !== null &&
        (value as ExtensionDefinitionLike).$$type ===
          '@backstage/ExtensionDefinition',
    )
    .map(
      ({ kind, name }) =>
        `${kind}:infra-delivery${name === undefined ? '' : `/${name}`}`,
    );
}

describe('README', () => {
  it("lists every extension of the plugin in the new frontend system's table", () => {
    const ids = extensionIds();
    expect(ids).toContain('sub-page:infra-delivery/projects');
    const tableRows = readme.split('\n').filter(line => line.startsWith('| `'));
    for (const id of ids) {
      expect([
        id,
        tableRows.some(row => row.startsWith(`| \`${id}\``)),
      ]).toEqual([id, true]);
    }
  });

  it('names every tab of the legacy Infrastructure page with its path', () => {
    const legacy = readme.slice(readme.indexOf('### Legacy frontend system'));
    for (const tabPath of LEGACY_TAB_PATHS) {
      expect([tabPath, legacy.includes(`(\`${tabPath}\``)]).toEqual([
        tabPath,
        true,
      ]);
    }
  });
});
