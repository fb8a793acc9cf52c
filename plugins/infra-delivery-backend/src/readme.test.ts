import fs from 'node:fs';
import path from 'node:path';

/*
 * The README is all an adopter who installs from npm reads: its configuration table must have a
 * row for every key of `infraDelivery` that config.d.ts declares (it once left out `signups`,
 * whose default `open` lets anyone who reaches the backend sign up, and `notifications`).
 */
const root = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const schema = fs.readFileSync(path.join(root, 'config.d.ts'), 'utf8');

/** The keys directly under `infraDelivery` in config.d.ts. */
function configKeys(): string[] {
  return [...schema.matchAll(/^ {4}(\w+)\??:/gm)].map(m => m[1]);
}

/** The keys the README's configuration table has a row for (`infraDelivery.a.b` → `a`). */
function tableKeys(): Set<string> {
  return new Set(
    [...readme.matchAll(/^\| `infraDelivery\.(\w+)/gm)].map(m => m[1]),
  );
}

describe('README', () => {
  it('has a configuration row for every key config.d.ts declares under infraDelivery', () => {
    expect(configKeys().length).toBeGreaterThan(10);
    const rows = tableKeys();
    expect(configKeys().filter(key => !rows.has(key))).toEqual([]);
  });
});
