import { ErrorBody } from '@infra-delivery/plugin-infra-delivery-common';

/** The headline Terraform and OpenTofu print when another command holds the state's lock. */
export const STATE_LOCK_HEADLINE = 'Error acquiring the state lock';

export const STATE_LOCKED_ERROR_CODE = 'InfraDelivery:Runner:STATE_LOCKED';

/** The lock as the tool describes it under "Lock Info:" (every field as printed). */
export interface StateLock {
  id?: string;
  path?: string;
  operation?: string;
  who?: string;
  version?: string;
  created?: string;
  info?: string;
  /** The backend's own words ("Error message: resource temporarily unavailable"). */
  errorMessage?: string;
}

/** The tool's name of each field, as it prints it under "Lock Info:". */
const FIELDS: Record<string, keyof StateLock> = {
  ID: 'id',
  Path: 'path',
  Operation: 'operation',
  Who: 'who',
  Version: 'version',
  Created: 'created',
  Info: 'info',
  'Error message': 'errorMessage',
};

/** The headline as a diagnostic line, with or without the box (`│ Error: Error acquiring …`). */
const LOCK_HEADLINE_LINE = new RegExp(`^[\\s│|]*Error: ${STATE_LOCK_HEADLINE}`);

/** `ID:        ef25…`, with or without the diagnostic's box (`│   ID: …`). */
const FIELD_LINE =
  /^[\s│|]*(ID|Path|Operation|Who|Version|Created|Info|Error message):[ \t]*(.*)$/;

/**
 * Reads a command's output, line by line, for Terraform's (or OpenTofu's) "Error acquiring the
 * state lock" and the lock it names: its id, who holds it and since when. Only the lines after
 * that headline count, and each field once (the first lock described).
 */
export class StateLockReader {
  private found = false;
  private readonly fields: StateLock = {};

  read(line: string): void {
    if (!this.found) {
      this.found = LOCK_HEADLINE_LINE.test(line);
      return;
    }
    const match = FIELD_LINE.exec(line);
    const key = match && FIELDS[match[1]];
    const value = match?.[2].trim();
    if (key && value && this.fields[key] === undefined) {
      this.fields[key] = value;
    }
  }

  /** The lock, once the output said that it could not be acquired. */
  get lock(): StateLock | undefined {
    return this.found ? { ...this.fields } : undefined;
  }
}

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

/** Where each tool documents `force-unlock`. */
function forceUnlockDocs(binaryName: string): string {
  return /tofu/i.test(binaryName)
    ? 'https://opentofu.org/docs/cli/commands/force-unlock/'
    : 'https://developer.hashicorp.com/terraform/cli/commands/force-unlock';
}

/**
 * The error of a step whose command could not lock the stack's state, in words a person can act
 * on: who holds the lock since when, and the exact command that releases it once nothing does.
 */
export function stateLockedError(
  command: string,
  exitCode: number,
  lock: StateLock,
  binaryName: string,
): ErrorBody {
  const operation = operationOf(lock);
  const created = createdOf(lock);
  const held = [
    lock.who ? `by ${lock.who}` : undefined,
    created ? `since ${created}` : undefined,
    operation
      ? `for ${operation === 'apply' ? 'an' : 'a'} ${operation}`
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const unlock = lock.id
    ? `${binaryName} force-unlock -force ${lock.id}`
    : `${binaryName} force-unlock -force <lock ID>`;
  return {
    code: STATE_LOCKED_ERROR_CODE,
    message: `${command} could not lock the stack's state: it is locked${
      held ? ` ${held}` : ''
    }${lock.id ? ` (lock ID ${lock.id})` : ''}`,
    description:
      `Another ${binaryName} command holds the lock of this stack's state: a run on another ` +
      'runner, someone working on the stack at a terminal, or a command that was killed and ' +
      'left its lock in a backend that keeps it (S3, Terraform Cloud, Consul, HTTP, …). Wait ' +
      'for it and run again. If nothing holds it any more, release it from a checkout of the ' +
      `stack with its backend configured: ${unlock} — then run again. Releasing a lock that ` +
      'a command still holds lets two commands write the state at once.',
    action: {
      label: `How ${binaryName} force-unlock releases a lock`,
      url: forceUnlockDocs(binaryName),
    },
    details: [
      {
        title: 'Lock Info',
        render: 'list',
        items: Object.entries(FIELDS).flatMap(([label, key]) =>
          lock[key] ? [`${label}: ${lock[key]}`] : [],
        ),
      },
    ],
    metadata: {
      command,
      exitCode,
      ...(lock.id ? { lockId: lock.id, unlockCommand: unlock } : {}),
      ...(lock.who ? { lockWho: lock.who } : {}),
    },
  };
}
