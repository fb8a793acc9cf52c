import {
  ErrorBody,
  errorCode,
} from '@infra-delivery/plugin-infra-delivery-common';

/** HTTP statuses the service answers errors with. */
export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 405
  | 409
  | 413
  | 415
  | 422
  | 429
  | 500
  | 502
  | 503;

export interface InfraDeliveryErrorOptions {
  status: ErrorStatus;
  entity: string;
  reason: string;
  message: string;
  description?: string;
  action?: ErrorBody['action'];
  details?: ErrorBody['details'];
  metadata?: Record<string, unknown>;
  /** Response headers, e.g. `Retry-After` for 429 and 503, `Allow` for 405. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A domain error that knows its ErrorBody code and HTTP status. Services throw it (or one of
 * `@backstage/errors`' errors); the router's error handler turns it into the response.
 */
export class InfraDeliveryError extends Error {
  readonly status: ErrorStatus;
  readonly code: string;
  readonly description?: string;
  readonly action?: ErrorBody['action'];
  readonly details?: ErrorBody['details'];
  readonly metadata?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(options: InfraDeliveryErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'InfraDeliveryError';
    this.status = options.status;
    this.code = errorCode(options.entity, options.reason);
    this.description = options.description;
    this.action = options.action;
    this.details = options.details;
    this.metadata = options.metadata;
    this.headers = options.headers;
  }

  /** The ErrorBody of this error, without a request id. */
  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.description ? { description: this.description } : {}),
      ...(this.action ? { action: this.action } : {}),
      ...(this.details ? { details: this.details } : {}),
      ...(this.metadata ? { metadata: this.metadata } : {}),
    };
  }
}

/** The id is unknown, or belongs to another organization: both answer the same 404. */
export function notFound(entity: string, id?: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 404,
    entity,
    reason: 'NOT_FOUND',
    message: id ? `${entity} ${id} was not found` : `${entity} was not found`,
    ...(id ? { metadata: { id } } : {}),
  });
}
