import {
  accessTokenSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  createApiKeyRequestSchema,
  createMembershipRequestSchema,
  updateMembershipRequestSchema,
  createServiceAccountRequestSchema,
  currentCallerSchema,
  dataResponseSchema,
  listApiKeysQuerySchema,
  listResponseSchema,
  membershipInvitationSchema,
  membershipSchema,
  organizationSchema,
  pageQuerySchema,
  serviceAccountSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenRequestSchema,
  updateOrganizationRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const signup = defineOperation({
  operationId: 'signup',
  method: 'post',
  path: '/auth/signup',
  summary:
    'Create a user and a new organization, or join the inviting organization with an invitation token',
  tag: 'Identity',
  access: 'public',
  description:
    'Where the portal is configured with `infraDelivery.signups: invitations-only`, only with an invitation token (403 `InfraDelivery:Signup:INVITATION_REQUIRED` without one). An email that has an account already joins the inviting organization with the invitation token and that account’s password (a wrong password is a 401 `InfraDelivery:Auth:INVALID_CREDENTIALS`, as on `/auth/token`; the password is not changed); the answer names the organization joined and the existing user. Without an invitation token, an email that has an account is a 409 `InfraDelivery:User:ALREADY_EXISTS`.',
  body: signupRequestSchema,
  success: { status: 201, schema: signupResponseSchema },
  errors: [400, 401, 403, 409, 429],
});

export const createAccessToken = defineOperation({
  operationId: 'createAccessToken',
  method: 'post',
  path: '/auth/token',
  summary: 'Exchange email and password for a short-lived access token',
  tag: 'Identity',
  access: 'public',
  body: tokenRequestSchema,
  success: { status: 200, schema: dataResponseSchema(accessTokenSchema) },
  errors: [400, 401, 429],
});

export const getCurrentCaller = defineOperation({
  operationId: 'getCurrentCaller',
  method: 'get',
  path: '/me',
  summary:
    'The caller as the service sees them: organization and role (portals use it to offer only allowed actions)',
  tag: 'Identity',
  access: 'authenticated',
  success: { status: 200, schema: dataResponseSchema(currentCallerSchema) },
  errors: [],
});

export const getCurrentOrganization = defineOperation({
  operationId: 'getCurrentOrganization',
  method: 'get',
  path: '/organizations/current',
  summary: "The caller's organization",
  tag: 'Organizations',
  access: 'authenticated',
  success: { status: 200, schema: dataResponseSchema(organizationSchema) },
  errors: [403],
});

export const updateCurrentOrganization = defineOperation({
  operationId: 'updateCurrentOrganization',
  method: 'patch',
  path: '/organizations/current',
  summary: "Rename the caller's organization or change its plan",
  tag: 'Organizations',
  access: 'authenticated',
  body: updateOrganizationRequestSchema,
  success: { status: 200, schema: dataResponseSchema(organizationSchema) },
  errors: [400, 403],
});

export const createMembership = defineOperation({
  operationId: 'createMembership',
  method: 'post',
  path: '/memberships',
  summary: 'Invite a person into the organization with a role',
  description:
    'An ADMIN invites MEMBERs and VIEWERs; only an OWNER invites an ADMIN or an OWNER (403 `InfraDelivery:Auth:INSUFFICIENT_ROLE`).',
  tag: 'Memberships',
  access: 'authenticated',
  body: createMembershipRequestSchema,
  success: {
    status: 201,
    schema: dataResponseSchema(membershipInvitationSchema),
  },
  errors: [400, 403, 409],
});

export const listMemberships = defineOperation({
  operationId: 'listMemberships',
  method: 'get',
  path: '/memberships',
  summary: 'Members and pending invitations of the organization, newest first',
  tag: 'Memberships',
  access: 'authenticated',
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(membershipSchema) },
  errors: [400, 403],
});

export const updateMembership = defineOperation({
  operationId: 'updateMembership',
  method: 'patch',
  path: '/memberships/{id}',
  summary: "Change a member's or an invitation's role",
  description:
    'An ADMIN may change MEMBER and VIEWER roles; only an OWNER may grant or take away ADMIN or OWNER. Nobody may raise their own role, anybody may lower it, and the last OWNER who has signed up cannot be demoted (409 `LAST_OWNER`).',
  tag: 'Memberships',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateMembershipRequestSchema,
  success: { status: 200, schema: dataResponseSchema(membershipSchema) },
  errors: [400, 403, 404, 409],
});

export const deleteMembership = defineOperation({
  operationId: 'deleteMembership',
  method: 'delete',
  path: '/memberships/{id}',
  summary: 'Remove a member or withdraw an invitation',
  description:
    'An ADMIN removes MEMBERs and VIEWERs; only an OWNER removes an ADMIN or an OWNER. Anybody may leave, except the last OWNER who has signed up (409 `LAST_OWNER`).',
  tag: 'Memberships',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const createServiceAccount = defineOperation({
  operationId: 'createServiceAccount',
  method: 'post',
  path: '/service-accounts',
  summary: 'Create a service account (runners, automation)',
  description:
    'Names are unique in the organization (a runner is called by its account’s name): a name in use is a 409 `NAME_TAKEN`. Only an OWNER creates an ADMIN service account.',
  tag: 'Service accounts',
  access: 'authenticated',
  body: createServiceAccountRequestSchema,
  success: { status: 201, schema: dataResponseSchema(serviceAccountSchema) },
  errors: [400, 403, 409],
});

export const listServiceAccounts = defineOperation({
  operationId: 'listServiceAccounts',
  method: 'get',
  path: '/service-accounts',
  summary: 'Service accounts of the organization, newest first',
  tag: 'Service accounts',
  access: 'authenticated',
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(serviceAccountSchema) },
  errors: [400, 403],
});

export const getServiceAccount = defineOperation({
  operationId: 'getServiceAccount',
  method: 'get',
  path: '/service-accounts/{id}',
  summary: 'One service account',
  tag: 'Service accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(serviceAccountSchema) },
  errors: [403, 404],
});

export const deleteServiceAccount = defineOperation({
  operationId: 'deleteServiceAccount',
  method: 'delete',
  path: '/service-accounts/{id}',
  summary: 'Delete a service account and revoke its API keys',
  description: 'Only an OWNER deletes an ADMIN service account.',
  tag: 'Service accounts',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404],
});

export const listApiKeys = defineOperation({
  operationId: 'listApiKeys',
  method: 'get',
  path: '/api-keys',
  summary:
    'API keys visible to the caller, newest first; `ownerType` and `ownerId` filter together',
  tag: 'API keys',
  access: 'authenticated',
  query: listApiKeysQuerySchema,
  success: { status: 200, schema: listResponseSchema(apiKeySchema) },
  errors: [400, 403],
});

export const createApiKey = defineOperation({
  operationId: 'createApiKey',
  method: 'post',
  path: '/api-keys',
  summary:
    "Create an API key for the caller's membership or, for an ADMIN, a service account; the key is returned once",
  description:
    "Without `ownerType` and `ownerId` the key is the caller's own. A service account's keys are created by an ADMIN, those of an ADMIN service account by an OWNER only; a service account's own key never creates keys for its account (403 `InfraDelivery:Auth:INSUFFICIENT_ROLE`).",
  tag: 'API keys',
  access: 'authenticated',
  body: createApiKeyRequestSchema,
  success: { status: 201, schema: dataResponseSchema(apiKeyWithSecretSchema) },
  errors: [400, 403, 404],
  idempotent: true,
});

export const revokeApiKey = defineOperation({
  operationId: 'revokeApiKey',
  method: 'delete',
  path: '/api-keys/{id}',
  summary: 'Revoke an API key',
  description:
    "Everybody revokes their own membership's keys; an ADMIN revokes MEMBERs', VIEWERs' and their service accounts' keys; only an OWNER revokes an ADMIN's, an OWNER's or an ADMIN service account's keys. A service account does not revoke its own keys.",
  tag: 'API keys',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404],
});
