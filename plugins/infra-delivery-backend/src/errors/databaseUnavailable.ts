import { isError } from '@backstage/errors';
import { isDatabaseError } from '../database/databaseErrors';
import { InfraDeliveryError } from './InfraDeliveryError';

/** How long a caller is asked to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection to the database that was refused, lost or never made. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs that say the server is going away or cannot take the connection: a
 * shutdown (57P01–57P03), too many connections (53300). Class 08 (connection exception) is
 * matched by its prefix.
 */
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres says when the connection ends under a query or cannot be made in time. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Connection ended unexpectedly',
  'Client has encountered a connection error',
  'Query read timeout',
  // connectionTimeoutMillis expired before the server answered (node-postgres 8).
  'timeout expired',
  'timeout exceeded when trying to connect',
];

/** The name of the pool's error when no connection could be had within its timeout. */
const POOL_TIMEOUT = 'KnexTimeoutError';

function describesLostDatabase(error: {
  name: string;
  message: string;
  code?: unknown;
}): string {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code && CONNECTION_CODES.has(code)) return code;
  if (code && (POSTGRES_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return `SQLSTATE ${code}`;
  }
  if (code === 'SQLITE_BUSY') return code;
  if (error.name === POOL_TIMEOUT)
    return 'no connection within the pool timeout';
  const message = DRIVER_MESSAGES.find(text => error.message.includes(text));
  return message ?? '';
}

/**
 * The cause, if `error` (or an error it wraps) came from the plugin's database client and says
 * the database could not be reached or went away under the request: a refused or reset connection, a server shutting down, a
 * pool that had no connection to give. Undefined for every other error, SQL errors included.
 */
export function lostDatabaseCause(error: unknown): string | undefined {
  let current: unknown = error;
  // Duck-typed: an error of Node's own (a socket's) may come from another realm's Error.
  for (let depth = 0; depth < 5 && isError(current); depth++) {
    if (isDatabaseError(current)) {
      return describesLostDatabase(current) || undefined;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A 503 for a request the database could not serve, with Retry-After: while PostgreSQL
 * restarts or fails over the service answers this, not an unexpected 500, and automation
 * (the reference runner included) tries again. A write whose answer was lost may or may not
 * have been made; sent again with its Idempotency-Key it is made at most once (idempotentWork.ts).
 */
export function fromLostDatabase(
  error: unknown,
): InfraDeliveryError | undefined {
  const cause = lostDatabaseCause(error);
  if (!cause) {
    return undefined;
  }
  return new InfraDeliveryError({
    status: 503,
    entity: 'Database',
    reason: 'UNAVAILABLE',
    message: `The service's database cannot be reached (${cause}); try again in ${DATABASE_RETRY_AFTER_SECONDS} s`,
    description:
      'The database is restarting, failing over or out of reach. A request that changes something may or may not have been carried out. Sent again with the same Idempotency-Key it is carried out at most once (a retry within 10 seconds may wait until the hold of the first request on the key lapses); without one, look (the runs, the deployments, the keys) before sending it again.',
    metadata: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause: error,
  });
}

/**
 * PostgreSQL refused a character of the request in text (SQLSTATE 22021: a NUL, U+0000, which
 * SQLite stores): the client's 400, not an unexpected 500 logged with its stack. The paths,
 * queries and log lines that carried one are handled before the database; this answers any
 * other field that does.
 */
export function fromUnstorableText(
  error: unknown,
): InfraDeliveryError | undefined {
  if (
    !isDatabaseError(error) ||
    (error as { code?: unknown }).code !== '22021'
  ) {
    return undefined;
  }
  return new InfraDeliveryError({
    status: 400,
    entity: 'Request',
    reason: 'UNSUPPORTED_CHARACTER',
    message:
      'The request holds a character the service cannot store (a NUL, U+0000); remove it and send the request again',
  });
}
