import { z } from 'zod';
import { errorBodySchema } from '../schemas';
import {
  EVENT_STREAM_CONTENT_TYPE,
  IDEMPOTENCY_KEY_HEADER,
  OperationDefinition,
} from './defineOperation';

import packageJson from '../../package.json';

/** The interface version of the specification (part 9). */
export const INTERFACE_VERSION = '0.0.0';

/**
 * The document's version: the version of the package that carries it, so that a client can
 * tell which release of the plugin it describes.
 */
export const API_VERSION: string = packageJson.version;

type JsonSchema = Record<string, unknown>;

const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Redirect',
  400: 'The request is not valid',
  401: 'Not authenticated',
  403: 'The caller lacks permission for the resource',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'The request body is too large',
  415: 'The request body is not JSON: send it with Content-Type: application/json',
  422: 'The request cannot be processed in the current state',
  429: 'Too many requests',
  500: 'Server error',
  502: 'An upstream service answered with an error',
  503: 'A dependency is unavailable; retry later',
};

/**
 * Collects JSON Schemas of zod types, moving every schema that carries a `meta({ id })` into
 * `components.schemas` and pointing `$ref`s there. A schema whose input shape (what a client
 * sends) differs from its output shape (what the server answers) gets an `Input` component.
 */
class ComponentCollector {
  readonly components: Record<string, JsonSchema> = {};

  toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
    }) as JsonSchema;
    const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
    const renames = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) {
      renames.set(id, this.register(id, rewriteRefs(def, renames), io));
    }
    delete converted.$defs;
    delete converted.$schema;
    const rewritten = rewriteRefs(converted, renames);
    if (typeof converted.id === 'string') {
      const id = converted.id;
      delete (rewritten as JsonSchema).id;
      return {
        $ref: `#/components/schemas/${this.register(id, rewritten, io)}`,
      };
    }
    return rewritten;
  }

  private register(
    id: string,
    def: JsonSchema,
    io: 'input' | 'output',
  ): string {
    const clean = { ...def };
    delete clean.id;
    const existing = this.components[id];
    if (!existing || JSON.stringify(existing) === JSON.stringify(clean)) {
      this.components[id] = clean;
      return id;
    }
    const alternative = io === 'input' ? `${id}Input` : `${id}Output`;
    this.components[alternative] = clean;
    return alternative;
  }
}

function rewriteRefs(value: unknown, renames: Map<string, string>): any {
  if (Array.isArray(value)) {
    return value.map(v => rewriteRefs(v, renames));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        const id = v.slice('#/$defs/'.length);
        out[key] = `#/components/schemas/${renames.get(id) ?? id}`;
      } else {
        out[key] = rewriteRefs(v, renames);
      }
    }
    return out;
  }
  return value;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    "Makes a retry safe: a request with the key of an earlier one from the same caller (within 24 hours) gets that request's answer, with the header `Idempotent-Replayed: true`, instead of doing the work again; concurrent requests with one key wait for the first one's answer. The same key with a different request is a 422; a failed request releases its key.",
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function parametersOf(
  collector: ComponentCollector,
  location: 'path' | 'query',
  schema: z.ZodObject | undefined,
) {
  if (!schema) {
    return [];
  }
  const json = collector.toJsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    const isArray =
      propertySchema.type === 'array' ||
      (Array.isArray(propertySchema.anyOf) &&
        (propertySchema.anyOf as JsonSchema[]).some(s => s.type === 'array'));
    return {
      name,
      in: location,
      required: location === 'path' ? true : required.has(name),
      ...(description ? { description } : {}),
      ...(isArray ? { style: 'form', explode: true } : {}),
      schema: propertySchema,
    };
  });
}

/**
 * The success response: JSON by default; a `Location` header for a redirect; for Server-Sent
 * Events a text body whose events' data schema goes in `x-itemSchema` (what OpenAPI 3.2 calls
 * `itemSchema`, which 3.1 lacks).
 */
function successResponse(
  collector: ComponentCollector,
  success: OperationDefinition['success'],
): JsonSchema {
  const description = STATUS_DESCRIPTIONS[success.status] ?? 'Success';
  if (success.status === 302) {
    return {
      description,
      headers: {
        Location: {
          description: 'Where the client continues',
          required: true,
          schema: { type: 'string', format: 'uri' },
        },
      },
    };
  }
  if (!success.schema) {
    return { description };
  }
  if (success.contentType === EVENT_STREAM_CONTENT_TYPE) {
    return {
      description: `${description}: Server-Sent Events`,
      content: {
        [EVENT_STREAM_CONTENT_TYPE]: {
          schema: {
            type: 'string',
            description:
              'Events separated by blank lines. The `data` of each event is one JSON value of `x-itemSchema`; a failure ends the stream with `event: error` whose `data` is an ErrorBody. Lines starting with `:` are heartbeats.',
          },
          'x-itemSchema': collector.toJsonSchema(success.schema, 'output'),
        },
      },
    };
  }
  return {
    description,
    content: {
      [success.contentType ?? 'application/json']: {
        schema: collector.toJsonSchema(success.schema, 'output'),
      },
    },
  };
}

/**
 * Builds the OpenAPI 3.1 document of the given operations from their zod schemas.
 *
 * @public
 */
export function buildOpenApiDocument(
  operationList: OperationDefinition[],
  options: { serverUrl?: string } = {},
) {
  const collector = new ComponentCollector();
  const errorRef = collector.toJsonSchema(errorBodySchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};

  for (const operation of operationList) {
    const responses: Record<string, unknown> = {};
    const success = operation.success;
    responses[String(success.status)] = successResponse(collector, success);
    if (success.emptyStatus) {
      responses[String(success.emptyStatus)] = {
        description: 'Nothing to return',
      };
    }
    const errorStatuses = new Set([
      ...operation.errors,
      ...(operation.access === 'authenticated' ? [401] : []),
      // Every body is limited in size, and taken as JSON unless the route reads its own.
      ...(operation.body ? [413] : []),
      ...(operation.body && !operation.readsOwnBody ? [415] : []),
      500,
    ]);
    for (const status of [...errorStatuses].sort()) {
      responses[String(status)] = {
        description: STATUS_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: errorRef } },
      };
    }

    const parameters = [
      ...parametersOf(collector, 'path', operation.params),
      ...parametersOf(collector, 'query', operation.query),
      ...(operation.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ];

    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: {
        operationId: operation.operationId,
        summary: operation.summary,
        ...(operation.description
          ? { description: operation.description }
          : {}),
        tags: [operation.tag],
        security: operation.access === 'public' ? [] : [{ bearerAuth: [] }],
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(operation.body
          ? {
              requestBody: {
                required: true,
                content: {
                  'application/json': {
                    schema: collector.toJsonSchema(operation.body, 'input'),
                  },
                },
              },
            }
          : {}),
        responses,
      },
    };
  }

  const sortedComponents = Object.fromEntries(
    Object.entries(collector.components).sort(([a], [b]) => a.localeCompare(b)),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Infrastructure Delivery Service',
      version: API_VERSION,
      'x-interface-version': INTERFACE_VERSION,
      description:
        'Projects, environments, pipelines and their runs, stacks, deployments, cloud accounts and forge integrations of one organization.',
    },
    servers: [
      {
        url: '{base_url}',
        variables: {
          base_url: {
            default: options.serverUrl ?? '/api/infra-delivery',
            description: 'Where the portal backend mounts the plugin',
          },
        },
      },
    ],
    tags: [...new Set(operationList.map(o => o.tag))].map(name => ({ name })),
    paths,
    components: {
      schemas: sortedComponents,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A Backstage user or service token, an access token from `POST /auth/token`, or an API key (`idk_…`).',
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
