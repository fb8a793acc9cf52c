import fs from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from './openapi';
import { operations } from './operations';

const committedPath = path.resolve(__dirname, '../../openapi.json');

describe('the committed OpenAPI document', () => {
  it('matches the operations (run `yarn openapi:generate` after changing a schema)', () => {
    const generated = `${JSON.stringify(
      buildOpenApiDocument(Object.values(operations)),
      null,
      2,
    )}\n`;
    if (process.env.UPDATE_OPENAPI === '1') {
      fs.writeFileSync(committedPath, generated);
    }
    expect(fs.readFileSync(committedPath, 'utf8')).toBe(generated);
  });
});

describe('the document version', () => {
  it("is the package's version, with the specification's interface version beside it", () => {
    const packageJson = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'),
    );
    const committed = JSON.parse(fs.readFileSync(committedPath, 'utf8'));
    expect(committed.info.version).toBe(packageJson.version);
    expect(committed.info.version).not.toBe('0.0.0');
    expect(committed.info['x-interface-version']).toBe('0.0.0');
  });
});
