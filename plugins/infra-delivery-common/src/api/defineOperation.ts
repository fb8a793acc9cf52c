import { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation before any role check: `public` operations carry their own
 * checks (sign-up, health, signed callbacks); every other operation needs a bearer credential.
 */
export type OperationAccess = 'public' | 'authenticated';

/**
 * One operation of the REST surface. The backend validates requests with these schemas, the
 * OpenAPI document is generated from them, and the typed client is derived from them: one
 * definition per operation, nowhere else.
 */
export interface OperationDefinition {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path relative to the plugin's base URL, e.g. `/pipelines/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: OperationAccess;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * The route reads its body itself, of any media type (GitHub sends webhooks as JSON or as a
   * form). Every other body is taken as JSON only: another type is a 415.
   */
  readsOwnBody?: true;
  /** Success status and body; a missing schema means no body (e.g. 204). */
  success: {
    /** 302: the operation answers a redirect to a `Location`, without a body or schema. */
    status: 200 | 201 | 202 | 204 | 302;
    schema?: z.ZodType;
    /**
     * `application/json` unless given. With `text/event-stream` the operation answers
     * Server-Sent Events, each event's data one JSON value of `schema`.
     */
    contentType?: string;
    /** Answered with no body when the handler has nothing to return (e.g. nothing claimable). */
    emptyStatus?: 204;
  };
  /** Error statuses the operation may answer with, besides 401 and 500. */
  errors: readonly number[];
  /**
   * The operation starts work and accepts an `Idempotency-Key` header: a retry with the same
   * key and request gets the first answer instead of doing the work again.
   */
  idempotent?: boolean;
}

/** The request header of an idempotent operation. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The media type of an operation that answers Server-Sent Events. */
export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream';

/** Keeps the exact schema types of an operation for the client and the router. */
export function defineOperation<const O extends OperationDefinition>(
  operation: O,
): O {
  return operation;
}

/**
 * What a caller sends: path parameters, query and body, where the operation has them, and an
 * idempotency key where the operation takes one.
 *
 * The outer `O extends unknown ? … : never` makes the type distribute over a union of
 * operations before the four parts are intersected. `client.call('listStacks', …)` without a
 * type argument has TypeScript take the request's type for every operation at once while it
 * infers the operation id: without the outer conditional, each part became a union over all
 * operations and their intersection the union of every combination — 69 × 32 × 45 × 2 members
 * against the published declarations, whose inlined schema types are distinct per operation,
 * beyond TypeScript's 100,000 (TS2590, "Expression produces a union type that is too complex
 * to represent"). Distributed first, it is one request type per operation.
 */
export type OperationRequest<O extends OperationDefinition> = O extends unknown
  ? (O extends { params: infer P extends z.ZodType }
      ? { params: z.input<P> }
      : {}) &
      (O extends { query: infer Q extends z.ZodType }
        ? { query?: z.input<Q> }
        : {}) &
      (O extends { body: infer B extends z.ZodType }
        ? { body: z.input<B> }
        : {}) &
      (O extends { idempotent: true } ? { idempotencyKey?: string } : {})
  : never;

/** What a handler receives after parsing: the schemas' outputs. */
export type ParsedOperationRequest<O extends OperationDefinition> = {
  params: O extends { params: infer P extends z.ZodType }
    ? z.output<P>
    : undefined;
  query: O extends { query: infer Q extends z.ZodType }
    ? z.output<Q>
    : undefined;
  body: O extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
};

/** What an operation answers on success (nothing for a 204). */
export type OperationResponse<O extends OperationDefinition> =
  O['success'] extends { schema: infer S extends z.ZodType }
    ? z.output<S>
    : void;
