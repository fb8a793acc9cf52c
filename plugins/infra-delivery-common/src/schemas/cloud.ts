import { z } from 'zod';
import {
  givenIdSchema,
  idSchema,
  nameSchema,
  repeatableQuery,
  requestBody,
  timestampSchema,
} from './primitives';

export const cloudAccountStatusSchema = z
  .enum(['AWAITING_CONNECTION', 'CONNECTED'])
  .meta({ id: 'CloudAccountStatus' });
export type CloudAccountStatus = z.infer<typeof cloudAccountStatusSchema>;

/** An AWS account id: twelve digits, leading zeros included. */
export const cloudIdSchema = z
  .string()
  .regex(/^\d{12}$/, 'a 12-digit AWS account id');

export const cloudAccountSchema = z
  .object({
    createdAt: timestampSchema,
    givenId: z.string(),
    id: idSchema,
    name: z.string(),
    organizationId: idSchema,
    status: cloudAccountStatusSchema,
    updatedAt: timestampSchema,
    cloudRef: z
      .string()
      .optional()
      .describe('ARN of the cross-account role, once connected'),
    cloudId: z.string().describe('The 12-digit AWS account id'),
    templateStackId: z
      .string()
      .optional()
      .describe('The CloudFormation stack that created the role'),
    latestRoleVersion: z.string(),
    latestRoleVersionDescription: z.string(),
    roleVersion: z
      .string()
      .optional()
      .describe(
        'Role policy version the account is connected with; older than latestRoleVersion means an upgrade is available',
      ),
  })
  .meta({ id: 'CloudAccount' });
export type CloudAccount = z.infer<typeof cloudAccountSchema>;

export const createCloudAccountRequestSchema = requestBody(
  z.object({
    name: nameSchema,
    givenId: givenIdSchema,
    cloudId: cloudIdSchema,
  }),
);

export const updateCloudAccountRequestSchema = requestBody(
  z.object({ name: nameSchema }),
);

export const cloudAccountTemplateUrlSchema = z
  .object({
    templateUrl: z
      .string()
      .describe(
        'Signed, expiring URL of the per-account onboarding template (CloudFormation YAML)',
      ),
    version: z.string().describe('Role policy version of the template'),
    templateStackId: z.string().optional(),
    quickCreateUrl: z
      .string()
      .optional()
      .describe(
        'AWS console link that creates the stack from a copy of the template in Amazon S3 (presigned, same expiry). Present only when the AWS driver publishes templates to a bucket (infraDelivery.cloud.templateBucket): the console reads templates from S3 only. Without it, create the stack from the downloaded templateUrl.',
      ),
  })
  .meta({ id: 'CloudAccountTemplateUrl' });
export type CloudAccountTemplateUrl = z.infer<
  typeof cloudAccountTemplateUrlSchema
>;

/** The signed part of a template URL; the signature covers the account, version and expiry. */
export const onboardingTemplateQuerySchema = z.object({
  version: z.string().min(1).max(32),
  expires: z.coerce
    .number()
    .int()
    .positive()
    .describe('Unix time (seconds) after which the link is refused'),
  signature: z.string().min(1).max(128),
});

/** What the template's custom resource posts once the role exists. */
export const onboardingCallbackRequestSchema = requestBody(
  z.object({
    cloudAccountId: idSchema,
    token: z.string().min(1).max(4096).describe('The onboarding JWT'),
    roleArn: z
      .string()
      .max(2048)
      .regex(
        /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,576}$/,
        'an IAM role ARN',
      ),
    stackId: z.string().min(1).max(1024),
  }),
);

/** #15; §4.5 rules (granularity floors, retention, no future end) are checked by the service. */
export const cloudMetricQuerySchema = z.object({
  cloudAccountId: idSchema,
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'an AWS region such as eu-west-1'),
  namespace: z.string().min(1).max(255),
  metricName: z.string().min(1).max(255),
  statistic: z
    .string()
    .min(1)
    .max(16)
    .describe(
      'Average, Sum, Minimum, Maximum, SampleCount (any case) or a percentile such as p99',
    ),
  period: z.coerce
    .number()
    .int()
    .positive()
    .describe('Seconds, a multiple of 60 at or above the window’s floor'),
  startTime: timestampSchema.describe('Inclusive'),
  endTime: timestampSchema.describe('Inclusive; not in the future'),
  // The 30-dimension rule is the service's; this bound only caps the input.
  dimension: repeatableQuery(z.string().min(1).max(1024), 1000)
    .optional()
    .describe('`Name=Value`, repeatable, at most 30'),
});
export type CloudMetricQuery = z.infer<typeof cloudMetricQuerySchema>;

export const cloudMetricSchema = z
  .object({
    datapoints: z.array(
      z.object({
        timestamp: timestampSchema,
        value: z.number(),
        max: z.number(),
        min: z.number(),
      }),
    ),
    unit: z.string(),
    source: z
      .enum(['cloudwatch', 'local'])
      .optional()
      .describe(
        'Where the datapoints come from: CloudWatch, or the synthetic daily wave of the local development driver (infraDelivery.cloud.driver: local), which calls no cloud',
      ),
  })
  .meta({ id: 'CloudMetric' });
export type CloudMetric = z.infer<typeof cloudMetricSchema>;
