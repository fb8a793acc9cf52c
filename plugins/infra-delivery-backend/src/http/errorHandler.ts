import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import { ErrorBody } from '@internal/plugin-infra-delivery-common';
import { ErrorRequestHandler } from 'express';
import { InfraDeliveryError } from '../errors';
import { requestIdOf } from './requestId';

/** `@backstage/errors` names → the status and reason this service answers them with. */
const BACKSTAGE_ERRORS: Record<
  string,
  { status: InfraDeliveryError['status']; entity: string; reason: string }
> = {
  InputError: { status: 400, entity: 'Request', reason: 'INVALID_INPUT' },
  AuthenticationError: {
    status: 401,
    entity: 'Auth',
    reason: 'UNAUTHENTICATED',
  },
  NotAllowedError: { status: 403, entity: 'Auth', reason: 'FORBIDDEN' },
  NotFoundError: { status: 404, entity: 'Resource', reason: 'NOT_FOUND' },
  ConflictError: { status: 409, entity: 'Resource', reason: 'CONFLICT' },
  ServiceUnavailableError: {
    status: 503,
    entity: 'Service',
    reason: 'UNAVAILABLE',
  },
};

/** body-parser's error types → what they mean for the caller. */
function fromBodyParser(error: unknown): InfraDeliveryError | undefined {
  const type = (error as { type?: unknown })?.type;
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: number }).limit;
    return new InfraDeliveryError({
      status: 413,
      entity: 'Request',
      reason: 'BODY_TOO_LARGE',
      message: `The request body is larger than ${limit} bytes`,
      metadata: { limit },
    });
  }
  if (type === 'entity.parse.failed') {
    return new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'MALFORMED_JSON',
      message: 'The request body is not valid JSON',
    });
  }
  if (
    type === 'encoding.unsupported' ||
    type === 'charset.unsupported' ||
    type === 'request.aborted'
  ) {
    return new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'UNREADABLE_BODY',
      message: 'The request body could not be read',
    });
  }
  return undefined;
}

function toInfraDeliveryError(error: unknown): InfraDeliveryError | undefined {
  if (error instanceof InfraDeliveryError) {
    return error;
  }
  const parserError = fromBodyParser(error);
  if (parserError) {
    return parserError;
  }
  if (isError(error) && BACKSTAGE_ERRORS[error.name]) {
    return new InfraDeliveryError({
      ...BACKSTAGE_ERRORS[error.name],
      message: error.message,
    });
  }
  return undefined;
}

/**
 * The router's last middleware: every error leaves as the specification's ErrorBody with the
 * request id. Unexpected errors are logged with their stack and answered without it.
 */
export function createErrorHandler(logger: LoggerService): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const requestId = requestIdOf(res);
    const known = toInfraDeliveryError(error);
    let status: number;
    let body: ErrorBody;
    if (known) {
      status = known.status;
      body = { ...known.toBody(), requestId };
      for (const [name, value] of Object.entries(known.headers ?? {})) {
        res.setHeader(name, value);
      }
      if (status >= 500) {
        logger.error(`${body.code} ${body.message}`, { requestId });
      }
    } else {
      status = 500;
      body = {
        code: 'InfraDelivery:Internal:UNEXPECTED',
        message: 'An unexpected error occurred',
        requestId,
      };
      logger.error('Unexpected error while handling a request', {
        requestId,
        error: isError(error) ? `${error.name}: ${error.message}` : 'unknown',
        stack: isError(error) ? error.stack : undefined,
      });
    }
    res.status(status).json(body);
  };
}
