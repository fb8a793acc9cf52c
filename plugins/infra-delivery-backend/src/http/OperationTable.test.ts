import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import express, { ErrorRequestHandler, Request, Response } from 'express';
import request from 'supertest';
import { expressPath } from './bindOperation';
import { OperationTable } from './OperationTable';

jest.setTimeout(120_000);

const allOperations = Object.values(operations);

/** Each answer names the operation that served it and the parameters it was given. */
function answer(operationId: string) {
  return async (req: Request, res: Response) => {
    res.json({ operationId, params: req.params });
  };
}

const notFound = (_req: Request, res: Response) => {
  res.status(404).json({ operationId: null });
};

const errors: ErrorRequestHandler = (error, _req, res, _next) => {
  res.status(400).json({ error: error.name });
};

/** The plugin's operations routed by Express, as the router did before the table. */
function expressApp() {
  const router = express.Router();
  for (const operation of allOperations) {
    router[operation.method](
      expressPath(operation.path),
      answer(operation.operationId),
    );
  }
  return express().use(router).use(notFound).use(errors);
}

/** The same operations through the table. */
function tableApp() {
  const table = new OperationTable();
  for (const operation of allOperations) {
    table.add(operation.method, operation.path, answer(operation.operationId));
  }
  return express().use(table.middleware()).use(notFound).use(errors);
}

/** A concrete path of an operation, its parameters filled with `value`. */
function concretePath(path: string, value: string) {
  return path.replace(/\{\w+\}/g, value);
}

const PARAMETER_VALUES = [
  '0190f2c4-1234-7abc-8def-0123456789ab',
  'caf%C3%A9%2F',
];

/** Variations a client or scanner may send for every operation's path. */
function pathsToCompare(): string[] {
  const paths = new Set<string>();
  for (const { path } of allOperations) {
    for (const value of PARAMETER_VALUES) {
      const concrete = concretePath(path, value);
      paths.add(concrete);
      paths.add(`${concrete}/`);
      paths.add(`${concrete}//`);
      paths.add(concrete.toUpperCase());
      paths.add(`${concrete}/extra`);
      paths.add(concrete.split('/').slice(0, -1).join('/') || '/');
    }
    paths.add(concretePath(path, ''));
    paths.add(concretePath(path, '%E0%A4%A'));
  }
  paths.add('/');
  paths.add('/unknown');
  return [...paths];
}

/** A server listening on a free port for the whole file (supertest would start one per request). */
function listening(app: express.Express): Promise<Server> {
  return new Promise(resolve => {
    const server = createServer(app).listen(0, '127.0.0.1', () =>
      resolve(server),
    );
  });
}

const urlOf = (server: Server) =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('OperationTable', () => {
  let byExpress: Server;
  let byTable: Server;

  beforeAll(async () => {
    byExpress = await listening(expressApp());
    byTable = await listening(tableApp());
  });

  afterAll(async () => {
    await Promise.all(
      [byExpress, byTable].map(
        server => new Promise(resolve => server.close(resolve)),
      ),
    );
  });

  it.each(['get', 'post', 'patch', 'delete', 'head'] as const)(
    'answers every %s request as Express routed it: same operation, parameters, 404 or 400',
    async method => {
      const differences: string[] = [];
      for (const path of pathsToCompare()) {
        const [expected, actual] = await Promise.all([
          request(urlOf(byExpress))[method](path),
          request(urlOf(byTable))[method](path),
        ]);
        const seen = (r: request.Response) =>
          JSON.stringify([r.status, r.body]);
        if (seen(expected) !== seen(actual)) {
          differences.push(
            `${method} ${path}: Express ${seen(expected)}, table ${seen(
              actual,
            )}`,
          );
        }
      }
      expect(differences).toEqual([]);
    },
  );

  it('serves the first registered of two routes that match one path', async () => {
    const table = new OperationTable();
    table.add('get', '/stacks/{id}', answer('byId'));
    table.add('get', '/stacks/current', answer('current'));
    table.add('get', '/{group}/current', answer('anyGroup'));
    table.add('get', '/runs/current', answer('runsCurrent'));
    const app = express().use(table.middleware()).use(notFound);

    expect((await request(app).get('/stacks/current')).body).toEqual({
      operationId: 'byId',
      params: { id: 'current' },
    });
    expect((await request(app).get('/runs/current')).body).toEqual({
      operationId: 'anyGroup',
      params: { group: 'runs' },
    });
  });

  it('answers HEAD through the GET operation', async () => {
    const table = new OperationTable();
    table.add('get', '/projects', answer('listProjects'));
    const app = express().use(table.middleware()).use(notFound);

    const response = await request(app).head('/projects');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
  });

  it('passes a rejected handler’s error on to the error handler', async () => {
    const table = new OperationTable();
    table.add('get', '/failing', async () => {
      throw new TypeError('broken');
    });
    const app = express().use(table.middleware()).use(notFound).use(errors);

    const response = await request(app).get('/failing');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'TypeError' });
  });
});
