import { ErrorBody } from '@infra-delivery/plugin-infra-delivery-common';
import { FIELDS, heldLockOf, StateLock } from './stateLock';

export const STATE_LOCKED_ERROR_CODE = 'InfraDelivery:Runner:STATE_LOCKED';

/** `OperationTypeApply` → `apply`. */
function operationOf(lock: StateLock): string | undefined {
  const operation = lock.operation?.replace(/^OperationType/, '').toLowerCase();
  return operation && operation !== 'invalid' ? operation : undefined;
}

/** `2026-12-01 08:21:37.507827864 +0000 UTC` → `2026-12-01 08:21:37 UTC`. */
function createdOf(lock: StateLock): string | undefined {
  return lock.created
    ?.replace(/(\d\d:\d\d:\d\d)\.\d+/, '$1')
    .replace(/ \+0000 UTC$/, ' UTC');
}

const isTofu = (binaryName: string) => /tofu/i.test(binaryName);

/** Where each tool documents `force-unlock`. */
function forceUnlockDocs(binaryName: string): string {
  return isTofu(binaryName)
    ? 'https://opentofu.org/docs/cli/commands/force-unlock/'
    : 'https://developer.hashicorp.com/terraform/cli/commands/force-unlock';
}

/** Where each tool documents the pg backend. */
function pgBackendDocs(binaryName: string): string {
  return isTofu(binaryName)
    ? 'https://opentofu.org/docs/language/settings/backends/pg/'
    : 'https://developer.hashicorp.com/terraform/language/backend/pg';
}

/** The backend's own words, for backends whose "Lock Info" is the command's own request. */
function backendAnswer(lock: StateLock) {
  return {
    title: "The backend's answer",
    render: 'list' as const,
    items: lock.errorMessage ? [`Error message: ${lock.errorMessage}`] : [],
  };
}

/** Finding the session that holds a pg backend's advisory lock, in the backend's database. */
export const PG_LOCK_HOLDERS_QUERY =
  "SELECT l.pid, a.client_addr, a.backend_start, a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory'";

/**
 * The pg backend's lock is a PostgreSQL advisory lock of the holder's database session, and the
 * backend names no holder. Tested with Terraform 1.11: `force-unlock` answers "Terraform state
 * has been successfully unlocked!" and the next plan is still refused, so it is not offered.
 */
function pgStateLockedError(
  command: string,
  exitCode: number,
  lock: StateLock,
  binaryName: string,
): ErrorBody {
  return {
    code: STATE_LOCKED_ERROR_CODE,
    message: `${command} could not lock the stack's state: another command holds its lock in the PostgreSQL (pg) backend, which does not say which`,
    description:
      'The pg backend locks a state with a PostgreSQL advisory lock that belongs to the ' +
      'database session of the command that took it: a run on another runner, someone working ' +
      'on the stack at a terminal, or a command whose connection is still open. The lock goes by ' +
      `itself when that command ends or its session closes; ${binaryName} force-unlock cannot ` +
      'release it (it says the state was unlocked and changes nothing). Wait for the other ' +
      "command and run again. To see which session holds it, run in the backend's database: " +
      `${PG_LOCK_HOLDERS_QUERY}; once sure that its command is gone, SELECT ` +
      'pg_terminate_backend(<pid>) ends the session and releases the lock.',
    action: {
      label: `How ${binaryName}'s pg backend locks the state`,
      url: pgBackendDocs(binaryName),
    },
    details: [backendAnswer(lock)],
    metadata: { command, exitCode, backend: 'pg' },
  };
}

/**
 * The error of a step whose command could not lock the stack's state, in words a person can act
 * on: who holds the lock since when, and the exact command that releases it once nothing does —
 * as far as the backend said (see `heldLockOf`).
 */
export function stateLockedError(
  command: string,
  exitCode: number,
  lock: StateLock,
  binaryName: string,
): ErrorBody {
  const { backend, holder } = heldLockOf(lock);
  if (backend === 'pg') {
    return pgStateLockedError(command, exitCode, lock, binaryName);
  }
  const operation = operationOf(holder);
  const created = createdOf(holder);
  const held = [
    holder.who ? `by ${holder.who}` : undefined,
    created ? `since ${created}` : undefined,
    operation
      ? `for ${operation === 'apply' ? 'an' : 'a'} ${operation}`
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const unlock = holder.id
    ? `${binaryName} force-unlock -force ${holder.id}`
    : `${binaryName} force-unlock -force <lock ID>`;
  const undescribed =
    backend === 'http' && !holder.id
      ? " The HTTP backend's server answered that the state is locked without describing the " +
        "lock: its ID is in the server's record of the lock."
      : '';
  return {
    code: STATE_LOCKED_ERROR_CODE,
    message: `${command} could not lock the stack's state: it is locked${
      held ? ` ${held}` : ''
    }${holder.id ? ` (lock ID ${holder.id})` : ''}`,
    description:
      `Another ${binaryName} command holds the lock of this stack's state: a run on another ` +
      'runner, someone working on the stack at a terminal, or a command that was killed and ' +
      'left its lock in a backend that keeps it (S3, Terraform Cloud, Consul, HTTP, …). Wait ' +
      'for it and run again. If nothing holds it any more, release it from a checkout of the ' +
      `stack with its backend configured: ${unlock} — then run again. Releasing a lock that ` +
      `a command still holds lets two commands write the state at once.${undescribed}`,
    action: {
      label: `How ${binaryName} force-unlock releases a lock`,
      url: forceUnlockDocs(binaryName),
    },
    details: [
      backend
        ? backendAnswer(lock)
        : {
            title: 'Lock Info',
            render: 'list',
            items: Object.entries(FIELDS).flatMap(([label, key]) =>
              holder[key] ? [`${label}: ${holder[key]}`] : [],
            ),
          },
    ],
    metadata: {
      command,
      exitCode,
      ...(backend ? { backend } : {}),
      ...(holder.id ? { lockId: holder.id, unlockCommand: unlock } : {}),
      ...(holder.who ? { lockWho: holder.who } : {}),
    },
  };
}
