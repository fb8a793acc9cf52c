import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backendSecretsOf } from './backendSecrets';
import { SecretRedactor } from './redaction';
import { backendOutput } from './__testUtils__/backendOutput';

describe('SecretRedactor', () => {
  it('masks the password of a conn_str Terraform printed whole', () => {
    const line = backendOutput('pg-init-conn-str-unparsable.txt').find(
      printed => printed.startsWith('Error: '),
    )!;
    expect(line).toContain('LeakyPW1');
    expect(new SecretRedactor().redact(line)).toBe(
      'Error: parse "postgres://postgres:***@127.0.0.1:notaport/r2_capture?sslmode=disable": invalid port ":notaport" after host',
    );
  });

  it("leaves what the tool masked already, and a URL's user", () => {
    const line =
      'GET http://runner:xxxxx@127.0.0.1:8124/state/x: Get "http://runner:***@127.0.0.1:8124/state/x"';
    expect(new SecretRedactor().redact(line)).toBe(line);
  });

  it('masks the password of a keyword/value connection string', () => {
    expect(
      new SecretRedactor().redact(
        "host=db port=5432 user=tf password='s3 cret' sslmode=disable / password=plain",
      ),
    ).toBe(
      'host=db port=5432 user=tf password=*** sslmode=disable / password=***',
    );
  });

  it("masks the values of the environment's secrets, and the passwords inside them", () => {
    const redactor = SecretRedactor.fromEnv({
      TF_HTTP_PASSWORD: 'http-env-secret',
      PG_CONN_STR: 'postgres://tf:p%40ss-word@db:5432/state',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
      HOME: '/home/runner',
      TF_HTTP_USERNAME: 'runner',
    });
    expect(
      redactor.redact(
        'auth http-env-secret; password p@ss-word; key aws-secret-value; home /home/runner; user runner',
      ),
    ).toBe('auth ***; password ***; key ***; home /home/runner; user runner');
  });

  it('masks no word for a secret too short to tell', () => {
    expect(new SecretRedactor(['pw', '']).redact('pw is here')).toBe(
      'pw is here',
    );
  });
});

describe('backendSecretsOf', () => {
  let workDir: string;

  beforeEach(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backend-secrets-'));
  });

  it('reads the credentials in the backend settings init recorded', async () => {
    fs.mkdirSync(path.join(workDir, '.terraform'));
    fs.writeFileSync(
      path.join(workDir, '.terraform', 'terraform.tfstate'),
      JSON.stringify({
        version: 3,
        backend: {
          type: 'http',
          config: {
            address: 'https://ci:url-secret@state.example.com/network',
            username: 'ci',
            password: 'http-secret',
            retry_max: 2,
            skip_cert_verification: null,
            headers: { 'X-Api-Token': 'header-secret' },
          },
          hash: 1,
        },
      }),
    );
    expect((await backendSecretsOf(workDir)).sort()).toEqual([
      'header-secret',
      'http-secret',
      'url-secret',
    ]);
  });

  it('reads none before the first init', async () => {
    expect(await backendSecretsOf(workDir)).toEqual([]);
  });
});
