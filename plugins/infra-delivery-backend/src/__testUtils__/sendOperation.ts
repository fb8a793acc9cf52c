import { OperationDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import { OperationCall } from './operationCalls';
import { BASE, InfraDeliveryTestClient } from './testBackend';

/** `/pipelines/{id}` with `{ id: 'p1' }` → `/pipelines/p1` (each value URL-encoded). */
export function fillPath(
  path: string,
  params: Record<string, string> = {},
): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) {
      throw new Error(`No value for {${name}} of ${path}`);
    }
    return encodeURIComponent(params[name]);
  });
}

/** A query string with array values repeated (`?a=1&a=2`), as the API reads them. */
export function queryString(
  query: Record<string, string | string[]> = {},
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      search.append(name, item);
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Sends one call of an operation as the holder of `token` (none when undefined). */
export function sendOperation(
  api: InfraDeliveryTestClient,
  operation: OperationDefinition,
  call: Pick<OperationCall, 'params' | 'query' | 'body' | 'headers'>,
  token: string | undefined,
): request.Test {
  const url = `${BASE}${fillPath(operation.path, call.params)}${queryString(
    call.query,
  )}`;
  let req = request(api.server)[operation.method](url);
  if (token !== undefined) {
    req = req.set('authorization', `Bearer ${token}`);
  }
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    req = req.set(name, value);
  }
  return call.body === undefined ? req : req.send(call.body as object);
}
