import { LoggerService } from '@backstage/backend-plugin-api';
import {
  EVENT_STREAM_CONTENT_TYPE,
  IDEMPOTENCY_KEY_HEADER,
  OperationDefinition,
  ParsedOperationRequest,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Request, Response } from 'express';
import { z } from 'zod';
import { actorIdOf, Caller } from '../auth/Caller';
import { RequestPart, validationError } from '../errors';
import { answerError } from './errorHandler';
import { EventStream, sendEventStream } from './eventStream';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyOf,
  IdempotentRequests,
  requestHashOf,
} from './IdempotentRequests';
import { OperationTable } from './OperationTable';
import { requestIdOf } from './requestId';
import { bodyErrors } from './bodyErrors';
import { BodyReader } from './jsonBody';
import { sendJson } from './sendJson';
import { queryParameterCheck } from './queryParameterCheck';
import { rememberLongQueries } from './longQueries';

/**
 * What a handler receives: the request parts already parsed by the operation's schemas, and
 * for an authenticated operation the resolved caller.
 */
export type OperationInput<O extends OperationDefinition> =
  ParsedOperationRequest<O> & {
    caller: O['access'] extends 'authenticated' ? Caller : undefined;
    req: Request;
    res: Response;
  };

/** What a redirecting operation (success status 302) answers: where the client goes on. */
export interface Redirect {
  redirectTo: string;
}

/**
 * What a handler answers: the success body before serialization; nothing for a 204, or for an
 * operation with an `emptyStatus` when there is nothing to return; the target of a 302; the
 * events of a `text/event-stream` operation, returned once its checks passed (what the handler
 * throws before is an ordinary error response).
 */
export type OperationResult<O extends OperationDefinition> =
  O['success'] extends { status: 302 }
    ? Redirect
    : O['success'] extends {
        contentType: typeof EVENT_STREAM_CONTENT_TYPE;
        schema: infer S extends z.ZodType;
      }
    ? EventStream<z.input<S>>
    : O['success'] extends { schema: infer S extends z.ZodType }
    ? O['success'] extends { emptyStatus: 204 }
      ? z.input<S> | undefined
      : z.input<S>
    : void;

export type OperationHandler<O extends OperationDefinition> = (
  input: OperationInput<O>,
) => Promise<OperationResult<O>>;

/** `/pipelines/{id}` → `/pipelines/:id` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

/** Parses a request part; `found` are issues found before the schema's (unknown parameters). */
function parsePart(
  schema: z.ZodType | undefined,
  value: unknown,
  part: RequestPart,
  found: z.core.$ZodIssue[] = [],
): unknown {
  const result = schema?.safeParse(value);
  // A parameter `found` wrong is said once, as `found` says it.
  const named = new Set(found.map(issue => issue.path[0]));
  const issues = [
    ...found,
    ...(result?.error?.issues ?? []).filter(issue => !named.has(issue.path[0])),
  ];
  if (issues.length > 0) {
    throw validationError(part, new z.ZodError(issues));
  }
  return result?.data;
}

/**
 * Whether a body parser took the request's body (body-parser marks the request), or it came
 * without one: a body of another type than JSON reaches an operation unparsed.
 */
function bodyWasParsed(req: Request): boolean {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0;
  return !hasBody || (req as Request & { _body?: boolean })._body === true;
}

/** Binds operations to handlers in one operation table. */
export type BindOperation = <O extends OperationDefinition>(
  operation: O,
  handler: OperationHandler<O>,
) => void;

/**
 * Serves operations through `table`: resolves the caller of an authenticated operation first (a
 * 401 before anything is read), reads the JSON body of an operation that takes one with
 * `readBody`, parses path, query and body with the operation's schemas (a
 * failure is a 400 ErrorBody listing every issue), calls the handler, and answers with the
 * operation's success status: JSON, a redirect, or Server-Sent Events. An `idempotent`
 * operation called with an `Idempotency-Key` answers through `idempotency`.
 */
export function createOperationBinder(
  table: OperationTable,
  resolveCaller: (req: Request) => Promise<Caller>,
  logger: LoggerService,
  idempotency: IdempotentRequests,
  readBody: BodyReader,
): BindOperation {
  return (operation, handler) => {
    const checkQueryParameters = queryParameterCheck(operation.query);
    const parseQuery = rememberLongQueries(query =>
      parsePart(operation.query, query, 'query', checkQueryParameters(query)),
    );
    if (
      operation.idempotent &&
      (operation.access !== 'authenticated' ||
        !operation.success.schema ||
        operation.success.contentType !== undefined)
    ) {
      // Keys are scoped by caller and answers are replayed as JSON.
      throw new Error(
        `${operation.operationId}: only authenticated JSON operations can be idempotent`,
      );
    }
    table.add(operation.method, operation.path, async (req, res) => {
      const caller =
        operation.access === 'authenticated'
          ? await resolveCaller(req)
          : undefined;
      if (operation.body && !operation.readsOwnBody) {
        await readBody(req, res);
      }
      if (operation.body && !operation.readsOwnBody && !bodyWasParsed(req)) {
        // `curl -d` sends form encoding unless told otherwise: say so, rather than that
        // `body.data` is missing.
        throw bodyErrors.notJson(req.headers['content-type']);
      }
      const input = {
        params: parsePart(operation.params, req.params, 'path'),
        query: parseQuery(req),
        body: parsePart(operation.body, req.body, 'body'),
        caller,
        req,
        res,
      } as OperationInput<typeof operation>;
      const idempotencyKey = operation.idempotent
        ? idempotencyKeyOf(req.header(IDEMPOTENCY_KEY_HEADER))
        : undefined;
      if (caller && idempotencyKey !== undefined) {
        const answer = await idempotency.answer(
          {
            organizationId: caller.organizationId,
            callerId: actorIdOf(caller),
            operationId: operation.operationId,
            key: idempotencyKey,
          },
          requestHashOf({
            params: req.params,
            query: req.query,
            body: req.body,
          }),
          async () => ({
            status: operation.success.status,
            body: await handler(input),
          }),
        );
        if (answer.replayed) {
          res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
        }
        sendJson(res, answer.status, answer.body);
        return;
      }
      const result = await handler(input);
      if (operation.success.status === 302) {
        res.redirect(302, (result as Redirect).redirectTo);
      } else if (operation.success.contentType === EVENT_STREAM_CONTENT_TYPE) {
        await sendEventStream(res, result as EventStream<unknown>, {
          errorBody: error => answerError(error, requestIdOf(res), logger).body,
        });
      } else if (
        operation.success.status === 204 ||
        (operation.success.emptyStatus && result === undefined)
      ) {
        res.status(204).end();
      } else if (
        operation.success.contentType &&
        operation.success.contentType !== 'application/json'
      ) {
        // A document in its own format (a CloudFormation template), sent as the handler made it.
        res
          .status(operation.success.status)
          .type(operation.success.contentType)
          .send(result);
      } else {
        sendJson(res, operation.success.status, result);
      }
    });
  };
}
