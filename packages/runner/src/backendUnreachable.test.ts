import {
  BackendErrorReader,
  backendUnreachableError,
  saysUnreachable,
} from './backendUnreachable';
import { backendOutput } from './__testUtils__/backendOutput';

const unreachableIn = (command: string, lines: string[]) => {
  const reader = new BackendErrorReader(command);
  lines.forEach(line => reader.read(line));
  return reader.unreachable;
};

describe('BackendErrorReader, on what Terraform 1.11 prints', () => {
  it('pg on a closed port, at init and at a plan after a good init', () => {
    expect(unreachableIn('init', backendOutput('pg-init-refused.txt'))).toBe(
      'dial tcp 127.0.0.1:5999: connect: connection refused',
    );
    expect(unreachableIn('plan', backendOutput('pg-plan-refused.txt'))).toBe(
      'dial tcp 127.0.0.1:5998: connect: connection refused',
    );
  });

  it('pg naming a host that does not resolve', () => {
    expect(
      unreachableIn('init', backendOutput('pg-init-no-such-host.txt')),
    ).toBe(
      'dial tcp: lookup no-such-host.invalid on 10.255.255.53:53: no such host',
    );
  });

  it('http answering 503, or nothing listening', () => {
    expect(unreachableIn('init', backendOutput('http-init-503.txt'))).toBe(
      'Error refreshing state: Failed to get state: GET http://127.0.0.1:8123/state/network giving up after 3 attempt(s)',
    );
    expect(
      unreachableIn('init', backendOutput('http-init-refused.txt')),
    ).toMatch(
      /^Error refreshing state: Failed to get state: GET .* connection refused$/,
    );
  });

  it("leaves a failed lock to the lock's reader, and a bad conn_str to the command's error", () => {
    expect(
      unreachableIn('plan', backendOutput('http-lock-503.txt')),
    ).toBeUndefined();
    expect(
      unreachableIn('init', backendOutput('pg-init-conn-str-unparsable.txt')),
    ).toBeUndefined();
    expect(
      unreachableIn('plan', backendOutput('pg-locked.txt')),
    ).toBeUndefined();
  });

  it('whatever order the two pipes were read in', () => {
    // The error (stderr) read before the step printed ahead of it (stdout).
    expect(
      unreachableIn('init', [
        'Error: dial tcp 127.0.0.1:5999: connect: connection refused',
        'Initializing the backend...',
      ]),
    ).toBe('dial tcp 127.0.0.1:5999: connect: connection refused');
    const reader = new BackendErrorReader('plan');
    reader.read(
      'Error: dial tcp 127.0.0.1:5998: connect: connection refused',
      false,
    );
    reader.read('', false);
    reader.read('aws_vpc.main: Refreshing state... [id=vpc-1]', true);
    expect(reader.unreachable).toBeUndefined();
  });

  it("does not take a provider's network error, after the backend answered, for the backend's", () => {
    expect(
      unreachableIn('init', [
        'Initializing the backend...',
        'Initializing provider plugins...',
        '- Finding latest version of hashicorp/aws...',
        'Error: Failed to query available provider packages: dial tcp: lookup registry.terraform.io: no such host',
      ]),
    ).toBeUndefined();
    expect(
      unreachableIn('plan', [
        'Acquiring state lock. This may take a few moments...',
        'aws_vpc.main: Refreshing state... [id=vpc-1]',
        'Error: reading VPC: dial tcp 10.0.0.1:443: i/o timeout',
      ]),
    ).toBeUndefined();
  });
});

describe('saysUnreachable', () => {
  it("knows a network's words from a lock's", () => {
    expect(
      saysUnreachable(
        'Failed to lock: LOCK http://127.0.0.1:8123/state/network giving up after 3 attempt(s)',
      ),
    ).toBe(true);
    expect(saysUnreachable('Workspace is already locked: default')).toBe(false);
    expect(saysUnreachable('resource temporarily unavailable')).toBe(false);
    expect(saysUnreachable(undefined)).toBe(false);
  });
});

describe('backendUnreachableError', () => {
  it("says which command could not reach the backend, in the backend's words", () => {
    const error = backendUnreachableError(
      'terraform init',
      1,
      'dial tcp 127.0.0.1:5999: connect: connection refused',
    );
    expect(error).toEqual({
      code: 'InfraDelivery:Runner:BACKEND_UNREACHABLE',
      message:
        "terraform init could not reach the stack's state backend: dial tcp 127.0.0.1:5999: connect: connection refused",
      description: expect.stringContaining('Nothing was changed.'),
      details: [
        {
          title: "The backend's answer",
          render: 'list',
          items: ['dial tcp 127.0.0.1:5999: connect: connection refused'],
        },
      ],
      metadata: { command: 'terraform init', exitCode: 1 },
    });
  });

  it('after an apply, says where the state it could not save is', () => {
    const error = backendUnreachableError(
      'tofu apply',
      1,
      'Failed to save state: dial tcp 127.0.0.1:5432: connect: connection refused',
    );
    expect(error.description).toContain('errored.tfstate');
    expect(error.description).not.toContain('Nothing was changed');
  });
});
