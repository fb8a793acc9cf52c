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
};

/** body-parser's error types → the same answers. */
export function fromBodyParser(error: unknown): InfraDeliveryError | undefined {
  const type = (error as { type?: unknown })?.type;
  if (type === 'entity.too.large') {
    return bodyErrors.tooLarge((error as { limit: number }).limit);
  }
  if (type === 'entity.parse.failed') {
    return bodyErrors.malformedJson();
  }
  if (
    type === 'encoding.unsupported' ||
    type === 'charset.unsupported' ||
    type === 'request.aborted'
  ) {
    return bodyErrors.unreadable();
  }
  return undefined;
}
