import { StateLockReader } from './stateLock';
import { PG_LOCK_HOLDERS_QUERY, stateLockedError } from './stateLockedError';
import { backendOutput } from './__testUtils__/backendOutput';

const lockIn = (fixture: string) => {
  const reader = new StateLockReader();
  backendOutput(fixture).forEach(line => reader.read(line));
  return reader.lock!;
};

describe('stateLockedError', () => {
  it('names the command that releases the lock, and the docs of the tool in use', () => {
    const error = stateLockedError(
      'tofu plan',
      1,
      { id: 'abc', who: 'ana@laptop', operation: 'OperationTypePlan' },
      'tofu',
    );
    expect(error.message).toBe(
      "tofu plan could not lock the stack's state: it is locked by ana@laptop for a plan (lock ID abc)",
    );
    expect(error.description).toContain('tofu force-unlock -force abc');
    expect(error.action?.url).toBe(
      'https://opentofu.org/docs/cli/commands/force-unlock/',
    );
  });

  it('says so without a lock ID when the backend gave none', () => {
    const error = stateLockedError('terraform plan', 1, {}, 'terraform');
    expect(error.message).toBe(
      "terraform plan could not lock the stack's state: it is locked",
    );
    expect(error.description).toContain(
      'terraform force-unlock -force <lock ID>',
    );
    expect(error.metadata).toEqual({ command: 'terraform plan', exitCode: 1 });
  });

  it('pg: says that the backend names no holder, offers no force-unlock, and how to find the session', () => {
    const error = stateLockedError(
      'terraform plan',
      1,
      lockIn('pg-locked.txt'),
      'terraform',
    );
    expect(error.message).toBe(
      "terraform plan could not lock the stack's state: another command holds its lock in the PostgreSQL (pg) backend, which does not say which",
    );
    // Not this command's own request, read as if it were the holder's.
    expect(JSON.stringify(error)).not.toContain('82394b82');
    expect(error.description).toContain(
      'terraform force-unlock cannot release it',
    );
    expect(error.description).not.toContain('force-unlock -force');
    expect(error.description).toContain(PG_LOCK_HOLDERS_QUERY);
    expect(error.description).toContain('pg_terminate_backend(<pid>)');
    expect(error.action?.url).toBe(
      'https://developer.hashicorp.com/terraform/language/backend/pg',
    );
    expect(error.details).toEqual([
      {
        title: "The backend's answer",
        render: 'list',
        items: ['Error message: Workspace is already locked: default'],
      },
    ]);
    expect(error.metadata).toEqual({
      command: 'terraform plan',
      exitCode: 1,
      backend: 'pg',
    });
  });

  it("http: names the holder's lock ID and the force-unlock that releases it", () => {
    const holderId = 'c92a8f49-298f-8472-fcc8-06bb9229fcb1';
    const error = stateLockedError(
      'terraform plan',
      1,
      lockIn('http-locked.txt'),
      'terraform',
    );
    expect(error.message).toBe(
      `terraform plan could not lock the stack's state: it is locked (lock ID ${holderId})`,
    );
    expect(error.description).toContain(
      `terraform force-unlock -force ${holderId}`,
    );
    expect(JSON.stringify(error)).not.toContain('cab17cc3');
    expect(error.metadata).toEqual({
      command: 'terraform plan',
      exitCode: 1,
      backend: 'http',
      lockId: holderId,
      unlockCommand: `terraform force-unlock -force ${holderId}`,
    });
  });

  it('http: a server that did not describe the lock is said to hold its ID', () => {
    const error = stateLockedError(
      'tofu apply',
      1,
      lockIn('http-locked-unreadable-body.txt'),
      'tofu',
    );
    expect(error.message).toBe(
      "tofu apply could not lock the stack's state: it is locked",
    );
    expect(error.description).toContain(
      "its ID is in the server's record of the lock",
    );
    expect(JSON.stringify(error)).not.toContain('f433cec8');
  });
});
