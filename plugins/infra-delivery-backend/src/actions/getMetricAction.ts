import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { InputError } from '@backstage/errors';
import { cloudMetricQuerySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { ActionContext } from './ActionContext';

/** The `get-metric` tool. */
export function registerGetMetricAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { cloudMetrics } = context.services;
  actionsRegistry.register({
    name: 'get-metric',
    title: 'Get a cloud metric',
    description:
      'A CloudWatch metric series of a connected cloud account of your organization, e.g. CPUUtilization of AWS/ECS. startTime and endTime are ISO 8601; period is in seconds, a multiple of 60.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          cloudAccountId: z.string().min(1).max(64),
          region: z.string().min(1).max(32),
          namespace: z.string().min(1).max(255),
          metricName: z.string().min(1).max(255),
          statistic: z.string().min(1).max(16).default('Average'),
          period: z.number().int().positive().default(300),
          startTime: z.string().min(1),
          endTime: z.string().min(1),
          dimensions: z
            .record(z.string())
            .optional()
            .describe('Dimension name → value, e.g. { "ClusterName": "web" }'),
        }),
      output: z =>
        z.object({
          unit: z.string(),
          datapoints: z.array(
            z.object({
              timestamp: z.string(),
              value: z.number(),
              max: z.number(),
              min: z.number(),
            }),
          ),
        }),
    },
    examples: [
      {
        title: 'CPU of an ECS service over an hour',
        input: {
          cloudAccountId: '01JACCOUNT',
          region: 'eu-west-1',
          namespace: 'AWS/ECS',
          metricName: 'CPUUtilization',
          statistic: 'Average',
          period: 300,
          startTime: '2026-01-01T10:00:00Z',
          endTime: '2026-01-01T11:00:00Z',
          dimensions: { ClusterName: 'web', ServiceName: 'api' },
        },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const { dimensions, ...rest } = input;
        const query = cloudMetricQuerySchema.safeParse({
          ...rest,
          dimension: dimensions
            ? Object.entries(dimensions).map(([name, v]) => `${name}=${v}`)
            : undefined,
        });
        if (!query.success) {
          throw new InputError(
            query.error.issues
              .map(issue => `${issue.path.join('.')}: ${issue.message}`)
              .join('; '),
          );
        }
        const metric = await cloudMetrics.getMetric(caller, query.data);
        return { output: { unit: metric.unit, datapoints: metric.datapoints } };
      }),
  });
}
