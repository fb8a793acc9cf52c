import fs from 'node:fs';
import path from 'node:path';

/** The lines of a captured Terraform output (`src/__fixtures__/backend-errors`). */
export function backendOutput(name: string): string[] {
  return fs
    .readFileSync(
      path.resolve(__dirname, '../__fixtures__/backend-errors', name),
      'utf8',
    )
    .split('\n');
}
