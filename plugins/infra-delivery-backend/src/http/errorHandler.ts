import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import {
  ErrorBody,
  errorCode,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ErrorRequestHandler } from 'express';
import { DeliveryMetrics } from '../metrics/DeliveryMetrics';
import {
  fromBackstageError,
  fromLostDatabase,
  fromUnstorableText,
  InfraDeliveryError,
} from '../errors';
import { fromBodyParser } from './bodyErrors';
import { requestIdOf } from './requestId';
import { sendJson } from './sendJson';

function toInfraDeliveryError(error: unknown): InfraDeliveryError | undefined {
  if (error instanceof InfraDeliveryError) {
    return error;
  }
  const parserError = fromBodyParser(error);
  if (parserError) {
    return parserError;
  }
  return (
    fromLostDatabase(error) ??
    fromUnstorableText(error) ??
    fromBackstageError(error)
  );
}

/** The code of the 503 a request gets while the database is away (`fromLostDatabase`). */
const DATABASE_UNAVAILABLE_CODE = errorCode('Database', 'UNAVAILABLE');

/** How an error is answered: status, ErrorBody (with the request id) and extra headers. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * The answer to an error. Unexpected errors are logged with their stack and answered without
 * it; known server errors (5xx) are logged with their code and message.
 */
export function answerError(
  error: unknown,
  requestId: string | undefined,
  logger: LoggerService,
): ErrorAnswer {
  const known = toInfraDeliveryError(error);
  if (known) {
    const body = { ...known.toBody(), requestId };
    if (known.status >= 500) {
      logger.error(`${body.code} ${body.message}`, { requestId });
    }
    return { status: known.status, body, headers: known.headers ?? {} };
  }
  logger.error('Unexpected error while handling a request', {
    requestId,
    error: isError(error) ? `${error.name}: ${error.message}` : 'unknown',
    stack: isError(error) ? error.stack : undefined,
  });
  return {
    status: 500,
    body: {
      code: 'InfraDelivery:Internal:UNEXPECTED',
      message: 'An unexpected error occurred',
      requestId,
    },
    headers: {},
  };
}

/**
 * The router's last middleware: every error leaves as the specification's ErrorBody with the
 * request id.
 */
export function createErrorHandler(
  logger: LoggerService,
  metrics?: DeliveryMetrics,
): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, body, headers } = answerError(
      error,
      requestIdOf(res),
      logger,
    );
    if (status === 503 && body.code === DATABASE_UNAVAILABLE_CODE) {
      metrics?.databaseUnavailable();
    }
    for (const [name, value] of Object.entries(headers)) {
      res.setHeader(name, value);
    }
    sendJson(res, status, body);
  };
}
