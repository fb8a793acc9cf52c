import { z } from 'zod';
import {
  cloudAccountSchema,
  cloudAccountTemplateUrlSchema,
  cloudMetricQuerySchema,
  cloudMetricSchema,
  createCloudAccountRequestSchema,
  dataResponseSchema,
  listResponseSchema,
  onboardingCallbackRequestSchema,
  onboardingTemplateQuerySchema,
  pageQuerySchema,
  updateCloudAccountRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const createCloudAccount = defineOperation({
  operationId: 'createCloudAccount',
  method: 'post',
  path: '/cloud-accounts',
  summary: 'Register an AWS account; it awaits connection through onboarding',
  description:
    'An AWS account is registered once in an organization: a `cloudId` registered already is a 409 `CLOUD_ID_TAKEN` that names the existing account, a `givenId` in use a 409 `GIVEN_ID_TAKEN`.',
  tag: 'Cloud accounts',
  access: 'authenticated',
  body: createCloudAccountRequestSchema,
  success: { status: 201, schema: dataResponseSchema(cloudAccountSchema) },
  errors: [400, 403, 409],
});

export const listCloudAccounts = defineOperation({
  operationId: 'listCloudAccounts',
  method: 'get',
  path: '/cloud-accounts',
  summary: 'Cloud accounts of the organization, newest first',
  tag: 'Cloud accounts',
  access: 'authenticated',
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(cloudAccountSchema) },
  errors: [400, 403],
});

export const getCloudAccount = defineOperation({
  operationId: 'getCloudAccount',
  method: 'get',
  path: '/cloud-accounts/{id}',
  summary: 'One cloud account',
  tag: 'Cloud accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(cloudAccountSchema) },
  errors: [403, 404],
});

export const updateCloudAccount = defineOperation({
  operationId: 'updateCloudAccount',
  method: 'patch',
  path: '/cloud-accounts/{id}',
  summary: 'Rename a cloud account',
  tag: 'Cloud accounts',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateCloudAccountRequestSchema,
  success: { status: 200, schema: dataResponseSchema(cloudAccountSchema) },
  errors: [400, 403, 404],
});

export const deleteCloudAccount = defineOperation({
  operationId: 'deleteCloudAccount',
  method: 'delete',
  path: '/cloud-accounts/{id}',
  summary:
    'Forget a cloud account (the role in AWS stays until its stack is deleted)',
  description:
    'Stacks that deploy into the account are detached from it and keep their resources. An account that deployments were made with is kept: their history, rollbacks and redeploys need it, so deleting it answers 409 `IN_USE` with the number of those deployments.',
  tag: 'Cloud accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const getCloudAccountTemplateUrl = defineOperation({
  operationId: 'getCloudAccountTemplateUrl',
  method: 'get',
  path: '/cloud-accounts/{id}/template-url',
  summary:
    'A signed, expiring onboarding template URL of the latest role policy version, to connect or upgrade the account',
  tag: 'Cloud accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(cloudAccountTemplateUrlSchema),
  },
  errors: [403, 404],
});

export const getCloudAccountOnboardingTemplate = defineOperation({
  operationId: 'getCloudAccountOnboardingTemplate',
  method: 'get',
  path: '/cloud-accounts/{id}/onboarding-template',
  summary:
    'The CloudFormation template behind a template URL; its signature and expiry are the credential',
  description:
    'Each download carries a fresh one-hour onboarding JWT, bound to the account, as the default of its OnboardingToken parameter.',
  tag: 'Cloud accounts',
  access: 'public',
  params: idParamsSchema,
  query: onboardingTemplateQuerySchema,
  success: {
    status: 200,
    schema: z.string().describe('CloudFormation template (YAML)'),
    contentType: 'application/x-yaml',
  },
  errors: [400, 403, 404],
});

export const completeCloudAccountOnboarding = defineOperation({
  operationId: 'completeCloudAccountOnboarding',
  method: 'post',
  path: '/cloud-accounts/onboarding-callback',
  summary:
    'Called by the onboarding stack once the role exists; the onboarding JWT is the credential and works once',
  tag: 'Cloud accounts',
  access: 'public',
  body: onboardingCallbackRequestSchema,
  success: { status: 200, schema: dataResponseSchema(cloudAccountSchema) },
  errors: [400, 401, 404, 409],
});

export const connectCloudAccountLocally = defineOperation({
  operationId: 'connectCloudAccountLocally',
  method: 'post',
  path: '/cloud-accounts/{id}/connect-local',
  summary:
    'Complete onboarding without AWS (served only when infraDelivery.cloud.driver is local)',
  tag: 'Cloud accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(cloudAccountSchema) },
  errors: [403, 404, 409],
});

export const getCloudMetric = defineOperation({
  operationId: 'getCloudMetric',
  method: 'get',
  path: '/cloud/metrics/metric',
  summary:
    'A metric time series of a connected cloud account (not wrapped in data)',
  description:
    'The period must be a multiple of 60 and at least 60 s for windows up to 15 days, 300 s up to 63 days and 3600 s up to 455 days; the start must be before the end and within 455 days; the end must not be in the future. Answers are cached for 60 s when the range ends now and for 5 minutes otherwise.',
  tag: 'Cloud metrics',
  access: 'authenticated',
  query: cloudMetricQuerySchema,
  success: { status: 200, schema: cloudMetricSchema },
  errors: [400, 403, 404, 409, 422, 503],
});
