import { mockServices } from '@backstage/backend-test-utils';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { CollectingReader } from '../__testUtils__/collectingReader';
import express from 'express';
import request from 'supertest';
import { InfraDeliveryError } from '../errors';
import { DATABASE_RETRY_AFTER_SECONDS } from '../errors/databaseUnavailable';
import { createErrorHandler } from '../http/errorHandler';
import { DeliveryMetrics } from './DeliveryMetrics';

async function sums(reader: MetricReader): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const seen: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints) {
        const outcome = point.attributes['infra_delivery.webhook.outcome'];
        const key = outcome
          ? `${metric.descriptor.name}{${outcome}}`
          : metric.descriptor.name;
        seen[key] = point.value as number;
      }
    }
  }
  return seen;
}

function throwing(error: Error): express.RequestHandler {
  return () => {
    throw error;
  };
}

describe('metrics of error answers', () => {
  it('counts the 503s of a lost database, not other 5xx', async () => {
    const reader = new CollectingReader();
    const metrics = new DeliveryMetrics(
      new MeterProvider({ readers: [reader] }).getMeter('test'),
    );
    const app = express();
    app.get(
      '/lost',
      throwing(
        new InfraDeliveryError({
          status: 503,
          entity: 'Database',
          reason: 'UNAVAILABLE',
          message: 'away',
          headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        }),
      ),
    );
    app.get(
      '/other',
      throwing(
        new InfraDeliveryError({
          status: 503,
          entity: 'Cloud',
          reason: 'UNAVAILABLE',
          message: 'CloudWatch away',
        }),
      ),
    );
    app.use(createErrorHandler(mockServices.logger.mock(), metrics));

    await request(app).get('/lost').expect(503);
    await request(app).get('/lost').expect(503);
    await request(app).get('/other').expect(503);
    expect(await sums(reader)).toEqual({
      'infra_delivery.http.database_unavailable': 2,
    });
  });
});
