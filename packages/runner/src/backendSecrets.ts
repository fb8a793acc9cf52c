import fs from 'node:fs/promises';
import path from 'node:path';
import { isSecretName, passwordsIn } from './redaction';

/**
 * The credentials in the backend settings `init` recorded in a working directory
 * (`.terraform/terraform.tfstate`: the backend block merged with `-backend-config`): the values
 * of settings named as secrets (`conn_str`, `password`, `secret_key`, `token`, …) and the
 * passwords of any URL or connection string (an http backend's `address`). None before the
 * first `init`, or when the file cannot be read.
 */
export async function backendSecretsOf(workDir: string): Promise<string[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      await fs.readFile(
        path.join(workDir, '.terraform', 'terraform.tfstate'),
        'utf8',
      ),
    );
  } catch {
    return [];
  }
  const config = (parsed as { backend?: { config?: unknown } } | null)?.backend
    ?.config;
  return config && typeof config === 'object'
    ? [...new Set(secretsIn(config))]
    : [];
}

function secretsIn(config: object, secretName = false): string[] {
  return Object.entries(config).flatMap(([name, value]) => {
    const secret = secretName || isSecretName(name);
    if (typeof value === 'string') {
      return [...(secret ? [value] : []), ...passwordsIn(value)];
    }
    return value && typeof value === 'object' ? secretsIn(value, secret) : [];
  });
}
