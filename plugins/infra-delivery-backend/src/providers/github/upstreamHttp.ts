import { InfraDeliveryError } from '../../errors';

/** How long an upstream server may take to answer. */
const UPSTREAM_TIMEOUT_MS = 30_000;
/** More than any page the service asks for; a larger answer is refused, not buffered. */
const MAX_UPSTREAM_BODY_BYTES = 8 * 1024 * 1024;

export interface UpstreamRequest {
  /** Names the upstream in error messages, e.g. the server's name. */
  upstreamName: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** The caller's signal: when it aborts, the request is abandoned and its AbortError thrown. */
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** The body parsed as JSON; `undefined` when it is empty or not JSON. */
  json: unknown;
}

function upstreamError(
  status: 502 | 503,
  reason: string,
  message: string,
  metadata?: Record<string, unknown>,
): InfraDeliveryError {
  return new InfraDeliveryError({
    status,
    entity: 'GitSelfHostedServer',
    reason,
    message,
    ...(metadata ? { metadata } : {}),
  });
}

async function readBody(response: Response, upstreamName: string) {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooLarge = () =>
    upstreamError(
      502,
      'UPSTREAM_RESPONSE_TOO_LARGE',
      `${upstreamName} answered with more than ${MAX_UPSTREAM_BODY_BYTES} bytes`,
    );
  if (declared > MAX_UPSTREAM_BODY_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > MAX_UPSTREAM_BODY_BYTES) {
        await response.body.cancel();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One request to a server whose address a user supplied (a self-hosted forge), with the
 * safeguards such a request needs: redirects are never followed (a 3xx is an error, so a
 * server cannot bounce the request, with its credentials, to an internal address), the answer
 * is bounded in time and size, and nothing of the upstream's own error text is trusted as JSON
 * beyond parsing.
 */
export async function requestUpstream(
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  const timeout = AbortSignal.timeout(UPSTREAM_TIMEOUT_MS);
  const signal = request.signal
    ? AbortSignal.any([request.signal, timeout])
    : timeout;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw upstreamError(
        502,
        'UPSTREAM_REDIRECT',
        `${request.upstreamName} answered with a redirect, which the service does not follow`,
        { status: response.status },
      );
    }
    const text = await readBody(response, request.upstreamName);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json };
  } catch (error) {
    if (error instanceof InfraDeliveryError) {
      throw error;
    }
    if (request.signal?.aborted) {
      throw request.signal.reason ?? error;
    }
    if (timeout.aborted) {
      throw upstreamError(
        503,
        'UNREACHABLE',
        `${request.upstreamName} did not answer within ${
          UPSTREAM_TIMEOUT_MS / 1000
        } seconds`,
      );
    }
    throw upstreamError(
      503,
      'UNREACHABLE',
      `${request.upstreamName} could not be reached`,
    );
  }
}
