import { errorBodySchema, ErrorBody } from '../schemas';
import {
  IDEMPOTENCY_KEY_HEADER,
  OperationDefinition,
  OperationRequest,
  OperationResponse,
  operations,
  Operations,
} from '../api';

/**
 * An error answered by the service, carrying its ErrorBody (code, message, requestId).
 *
 * @public
 */
export class InfraDeliveryApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'InfraDeliveryApiError';
    this.status = status;
    this.body = body;
  }
}

export interface InfraDeliveryClientOptions {
  /** Resolves the plugin's base URL, e.g. `http://localhost:7007/api/infra-delivery`. */
  baseUrl: () => Promise<string>;
  /** A fetch that adds the caller's credentials (Backstage's fetchApi in the frontend). */
  fetch: typeof fetch;
}

function buildPath(template: string, params: Record<string, unknown> = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

function buildQuery(query: Record<string, unknown> = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v !== undefined && v !== null) {
        search.append(name, v instanceof Date ? v.toISOString() : String(v));
      }
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The typed client of the REST surface, derived from the operation definitions.
 *
 * @public
 */
export class InfraDeliveryClient {
  constructor(private readonly options: InfraDeliveryClientOptions) {}

  /** Calls the operation; `options.signal` aborts the request (a held runner claim, say). */
  async call<K extends keyof Operations>(
    operationId: K,
    request: OperationRequest<Operations[K]>,
    options: { signal?: AbortSignal } = {},
  ): Promise<OperationResponse<Operations[K]>> {
    const operation = operations[operationId] as OperationDefinition;
    const input = request as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      idempotencyKey?: string;
    };
    const url = `${await this.options.baseUrl()}${buildPath(
      operation.path,
      input.params,
    )}${buildQuery(input.query)}`;
    const response = await this.options.fetch(url, {
      method: operation.method.toUpperCase(),
      headers: {
        ...(input.body === undefined
          ? {}
          : { 'Content-Type': 'application/json' }),
        ...(input.idempotencyKey === undefined
          ? {}
          : { [IDEMPOTENCY_KEY_HEADER]: input.idempotencyKey }),
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: options.signal,
    });
    if (!response.ok) {
      throw await errorFromResponse(response);
    }
    if (response.status === 204) {
      return undefined as OperationResponse<Operations[K]>;
    }
    return (await response.json()) as OperationResponse<Operations[K]>;
  }
}

async function errorFromResponse(response: Response) {
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const body = errorBodySchema.safeParse(parsed);
  return new InfraDeliveryApiError(
    response.status,
    body.success
      ? body.data
      : {
          code: 'InfraDelivery:Request:UNEXPECTED_RESPONSE',
          message: `The service answered ${response.status} ${response.statusText}`,
          requestId: response.headers.get('x-request-id') ?? undefined,
        },
  );
}
