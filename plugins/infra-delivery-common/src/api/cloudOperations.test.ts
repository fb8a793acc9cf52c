import { buildOpenApiDocument } from './openapi';
import { operations } from './operations';

describe('cloud operations in the OpenAPI document', () => {
  const document = buildOpenApiDocument(Object.values(operations));
  const paths = document.paths as Record<string, any>;

  it('answers template-url with exactly 200, 401, 403, 404 and 500', () => {
    const responses = paths['/cloud-accounts/{id}/template-url'].get.responses;
    expect(Object.keys(responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '404',
      '500',
    ]);
    expect(responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        data: { $ref: '#/components/schemas/CloudAccountTemplateUrl' },
      },
      required: ['data'],
      additionalProperties: false,
    });
  });

  it('serves the onboarding template as YAML and the callback without a bearer', () => {
    const template = paths['/cloud-accounts/{id}/onboarding-template'].get;
    expect(Object.keys(template.responses['200'].content)).toEqual([
      'application/x-yaml',
    ]);
    expect(template.security).toEqual([]);
    expect(
      template.parameters.map((p: { name: string }) => p.name).sort(),
    ).toEqual(['expires', 'id', 'signature', 'version']);
    expect(paths['/cloud-accounts/onboarding-callback'].post.security).toEqual(
      [],
    );
  });

  it('answers the metric unwrapped, with a repeatable dimension', () => {
    const metric = paths['/cloud/metrics/metric'].get;
    expect(metric.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CloudMetric',
    });
    const dimension = metric.parameters.find(
      (p: { name: string }) => p.name === 'dimension',
    );
    expect(dimension).toMatchObject({
      in: 'query',
      required: false,
      style: 'form',
      explode: true,
    });
    expect(
      metric.parameters
        .filter((p: { required: boolean }) => p.required)
        .map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual([
      'cloudAccountId',
      'endTime',
      'metricName',
      'namespace',
      'period',
      'region',
      'startTime',
      'statistic',
    ]);
  });
});
