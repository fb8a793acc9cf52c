import {
  OperationDefinition,
  ParsedOperationRequest,
} from '@internal/plugin-infra-delivery-common';
import { Request, Response, Router } from 'express';
import { z } from 'zod';
import { Caller } from '../auth/Caller';
import { RequestPart, validationError } from '../errors';

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

/**
 * What a handler answers: the success body before serialization; nothing for a 204, or for an
 * operation with an `emptyStatus` when there is nothing to return.
 */
export type OperationResult<O extends OperationDefinition> =
  O['success'] extends { schema: infer S extends z.ZodType }
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

function parsePart(
  schema: z.ZodType | undefined,
  value: unknown,
  part: RequestPart,
): unknown {
  if (!schema) {
    return undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw validationError(part, result.error);
  }
  return result.data;
}

/** Binds operations to handlers on one router. */
export type BindOperation = <O extends OperationDefinition>(
  operation: O,
  handler: OperationHandler<O>,
) => void;

/**
 * Serves operations on `router`: resolves the caller of an authenticated operation first (a
 * 401 before anything is parsed), parses path, query and body with the operation's schemas (a
 * failure is a 400 ErrorBody listing every issue), calls the handler, and answers with the
 * operation's success status.
 */
export function createOperationBinder(
  router: Router,
  resolveCaller: (req: Request) => Promise<Caller>,
): BindOperation {
  return (operation, handler) => {
    router[operation.method](expressPath(operation.path), async (req, res) => {
      const caller =
        operation.access === 'authenticated'
          ? await resolveCaller(req)
          : undefined;
      const input = {
        params: parsePart(operation.params, req.params, 'path'),
        query: parsePart(operation.query, req.query, 'query'),
        body: parsePart(operation.body, req.body, 'body'),
        caller,
        req,
        res,
      } as OperationInput<typeof operation>;
      const result = await handler(input);
      if (
        operation.success.status === 204 ||
        (operation.success.emptyStatus && result === undefined)
      ) {
        res.status(204).end();
      } else {
        res.status(operation.success.status).json(result);
      }
    });
  };
}
