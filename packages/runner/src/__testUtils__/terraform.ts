import fs from 'node:fs';
import path from 'node:path';

/**
 * The Terraform binary the tests that drive a real one use: `INFRA_DELIVERY_TEST_TERRAFORM`, else
 * `terraform` on the PATH; undefined when there is none (those tests are skipped, saying why).
 */
export function terraformBinary(): string | undefined {
  const candidates = [
    process.env.INFRA_DELIVERY_TEST_TERRAFORM,
    ...(process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean)
      .map(dir => path.join(dir, 'terraform')),
  ];
  return candidates.find(candidate => {
    if (!candidate) return false;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}
