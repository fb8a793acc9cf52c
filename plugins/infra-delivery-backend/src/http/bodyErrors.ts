import { InfraDeliveryError } from '../errors';

/** What a request body that could not be taken is answered with, whichever parser refused it. */
export const bodyErrors = {
  tooLarge: (limit: number) =>
    new InfraDeliveryError({
      status: 413,
      entity: 'Request',
      reason: 'BODY_TOO_LARGE',
      message: `The request body is larger than ${limit} bytes`,
      metadata: { limit },
    }),
  inflatesTooFar: (ratio: number) =>
    new InfraDeliveryError({
      status: 413,
      entity: 'Request',
      reason: 'INFLATES_TOO_FAR',
      message: `The compressed request body inflates to more than ${ratio} times its size`,
      metadata: { maxRatio: ratio },
    }),
  unsupportedEncoding: () =>
    new InfraDeliveryError({
      status: 415,
      entity: 'Request',
      reason: 'UNSUPPORTED_ENCODING',
      message:
        'The request body’s content encoding is not accepted here: only a runner’s requests may be compressed (gzip, deflate or br)',
    }),
  tooDeep: (max: number) =>
    new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'TOO_DEEP',
      message: `The request body nests deeper than ${max} levels`,
      metadata: { maxDepth: max },
    }),
  notJson: (contentType: string | undefined) =>
    new InfraDeliveryError({
      status: 415,
      entity: 'Request',
      reason: 'NOT_JSON',
      message: `The request body must be JSON, sent with Content-Type: application/json; ${
        contentType
          ? `this one was sent as ${contentType}`
          : 'this one has no Content-Type'
      }`,
      metadata: { contentType: contentType ?? null },
    }),
  malformedJson: () =>
    new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'MALFORMED_JSON',
      message: 'The request body is not valid JSON',
    }),
  unreadable: () =>
    new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'UNREADABLE_BODY',
      message: 'The request body could not be read',
    }),
  nulInPath: () =>
    new InfraDeliveryError({
      status: 400,
      entity: 'Request',
      reason: 'MALFORMED_PATH',
      message: 'A path parameter must not contain a NUL character (%00)',
    }),
};

/** A path parameter that is not valid %-encoding (Express cannot decode it). */
const malformedPath = () =>
  new InfraDeliveryError({
    status: 400,
    entity: 'Request',
    reason: 'MALFORMED_PATH',
    message: 'The request path is not valid percent-encoding',
  });

/**
 * body-parser's and Express's own request errors → the same answers: a body or path that
 * could not be read is the client's 400, never a 500.
 */
export function fromBodyParser(error: unknown): InfraDeliveryError | undefined {
  if (error instanceof URIError) {
    return malformedPath();
  }
  const type = (error as { type?: unknown })?.type;
  if (type === 'entity.too.large') {
    return bodyErrors.tooLarge((error as { limit: number }).limit);
  }
  if (type === 'entity.parse.failed') {
    return bodyErrors.malformedJson();
  }
  if (type === 'encoding.unsupported') {
    return bodyErrors.unsupportedEncoding();
  }
  if (type === 'charset.unsupported' || type === 'request.aborted') {
    return bodyErrors.unreadable();
  }
  // Any other http-errors 4xx raised while reading the body (a corrupt compressed body, say).
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  if (
    typeof status === 'number' &&
    status >= 400 &&
    status < 500 &&
    (error as { expose?: unknown }).expose === true
  ) {
    return status === 413
      ? bodyErrors.tooLarge((error as { limit?: number }).limit ?? 0)
      : bodyErrors.unreadable();
  }
  return undefined;
}
