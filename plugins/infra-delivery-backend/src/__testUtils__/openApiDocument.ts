import fs from 'node:fs';

/** A JSON Schema of the OpenAPI document, as it is written there. */
export type JsonSchema = Record<string, any>;

export type ParameterPlace = 'path' | 'query' | 'header';

export interface OpenApiParameter {
  name: string;
  in: ParameterPlace;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the document: what a client learns from it alone. */
export interface OpenApiOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Relative to the plugin's base URL, e.g. `/pipelines/{id}`. */
  path: string;
  parameters: OpenApiParameter[];
  /** The schema of the JSON request body, where the operation takes one. */
  body?: JsonSchema;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The committed OpenAPI document of the REST API (`plugins/infra-delivery-common/openapi.json`,
 * generated from the common package's schemas and compared with them by its own test).
 */
export class OpenApiDocument {
  static load(): OpenApiDocument {
    const file = require.resolve(
      '@infra-delivery/plugin-infra-delivery-common/openapi.json',
    );
    return new OpenApiDocument(JSON.parse(fs.readFileSync(file, 'utf8')));
  }

  private constructor(private readonly document: any) {}

  operations(): OpenApiOperation[] {
    const found: OpenApiOperation[] = [];
    for (const [path, item] of Object.entries<any>(this.document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) {
          continue;
        }
        found.push({
          operationId: operation.operationId,
          method,
          path,
          parameters: (operation.parameters ?? []).map((p: any) => ({
            name: p.name,
            in: p.in,
            required: p.required === true,
            schema: p.schema ?? {},
          })),
          body: operation.requestBody?.content?.['application/json']?.schema,
        });
      }
    }
    return found;
  }

  /** `schema` with its `$ref` followed to the document's components (the nested ones stay). */
  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 20) {
        throw new Error(`A cycle of $refs at ${schema.$ref}`);
      }
      const name = current.$ref.replace('#/components/schemas/', '');
      const target = this.document.components.schemas[name];
      if (!target) {
        throw new Error(`Unknown $ref ${current.$ref}`);
      }
      const { $ref: _ref, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }
}
