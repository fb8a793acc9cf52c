import { NextFunction, Request, RequestHandler, Response } from 'express';
import { bodyErrors } from './bodyErrors';

/** What serves one operation once its path matched; its rejection goes to the error handler. */
export type OperationRequestHandler = (
  req: Request,
  res: Response,
) => Promise<void>;

type Segment = { literal: string } | { param: string };

interface Route {
  /** Registration order: among routes that match one path, the first registered serves it. */
  order: number;
  method: string;
  segments: Segment[];
  handler: OperationRequestHandler;
}

/** Routes with `count` segments and a first segment `first` (or a parameter there). */
function bucketKey(count: number, first: string | undefined) {
  return first === undefined ? `${count} :` : `${count} /${first}`;
}

/** Express's rule: a route for GET serves HEAD too. */
function serves(route: Route, method: string) {
  return (
    route.method === method || (method === 'HEAD' && route.method === 'GET')
  );
}

/** `/pipelines/{id}/runs` → a literal, a parameter, a literal. */
function segmentsOf(openApiPath: string): Segment[] {
  return openApiPath
    .slice(1)
    .split('/')
    .map(part => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      return param ? { param } : { literal: part.toLowerCase() };
    });
}

function decodeParam(value: string): string {
  if (!value.includes('%')) {
    return value;
  }
  // What Express does: a value that is not valid %-encoding is a URIError, answered 400
  // MALFORMED_PATH by the error handler (http/bodyErrors.ts).
  const decoded = decodeURIComponent(value);
  if (decoded.includes('\u0000')) {
    // No id holds one, and PostgreSQL refuses it in any text: a 500 for every route's id.
    throw bodyErrors.nulInPath();
  }
  return decoded;
}

/**
 * The plugin's operations by path. Express matched a request against its ~110 routes one
 * regular expression at a time, in registration order; this table looks up the few routes
 * with the request's number of segments and first segment, and matches those the same way
 * Express did: literal segments without regard to case, one optional trailing slash,
 * parameters of one or more characters decoded with `decodeURIComponent` as soon as a
 * route's path matches (whatever its method: a malformed parameter is a 400 even on a path
 * only another method serves), HEAD served by the GET operation, the first registered route
 * winning. A request that no operation serves goes on to the next middleware (the router's
 * 404).
 */
export class OperationTable {
  private readonly buckets = new Map<string, Route[]>();
  private registered = 0;

  add(
    method: string,
    openApiPath: string,
    handler: OperationRequestHandler,
  ): void {
    const segments = segmentsOf(openApiPath);
    const first = segments[0];
    const key = bucketKey(
      segments.length,
      'literal' in first ? first.literal : undefined,
    );
    const routes = this.buckets.get(key) ?? [];
    routes.push({
      order: this.registered++,
      method: method.toUpperCase(),
      segments,
      handler,
    });
    this.buckets.set(key, routes);
  }

  /** The operation serving `method` and `path`, with its decoded path parameters. */
  find(
    method: string,
    path: string,
  ):
    | { handler: OperationRequestHandler; params: Record<string, string> }
    | undefined {
    const trimmed =
      path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const parts = trimmed.slice(1).split('/');
    const literal = this.buckets.get(
      bucketKey(parts.length, parts[0].toLowerCase()),
    );
    const parameter = this.buckets.get(bucketKey(parts.length, undefined));
    const candidates =
      literal && parameter
        ? [...literal, ...parameter].sort((a, b) => a.order - b.order)
        : literal ?? parameter;
    for (const route of candidates ?? []) {
      const params = this.paramsOf(route, parts);
      if (params && serves(route, method)) {
        return { handler: route.handler, params };
      }
    }
    return undefined;
  }

  /**
   * The methods that operations serve at `path` (HEAD where GET is), for the 405 of a request
   * whose path exists with another method; empty for a path no operation has.
   */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      try {
        if (this.find(method, path)) {
          methods.add(method);
          if (method === 'GET') methods.add('HEAD');
        }
      } catch {
        // A parameter that is not valid %-encoding: no operation serves this path.
        return [];
      }
    }
    return [...methods];
  }

  /** Dispatches matching requests; the rest go on. */
  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      let found;
      try {
        found = this.find(req.method, req.path);
      } catch (error) {
        next(error);
        return;
      }
      if (!found) {
        next();
        return;
      }
      req.params = found.params;
      found.handler(req, res).catch(next);
    };
  }

  private paramsOf(
    route: Route,
    parts: string[],
  ): Record<string, string> | undefined {
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const segment = route.segments[i];
      const part = parts[i];
      if ('literal' in segment) {
        if (part.toLowerCase() !== segment.literal) {
          return undefined;
        }
      } else if (part.length === 0) {
        return undefined;
      } else {
        params[segment.param] = part;
      }
    }
    // Decoded only once the route matched, as Express does.
    for (const name of Object.keys(params)) {
      params[name] = decodeParam(params[name]);
    }
    return params;
  }
}
