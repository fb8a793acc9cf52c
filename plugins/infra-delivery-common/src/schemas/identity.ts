import { z } from 'zod';
import {
  descriptionSchema,
  emailSchema,
  idSchema,
  nameSchema,
  requestBody,
  singleLineTextSchema,
  timestampSchema,
} from './primitives';
import { pageQuerySchema } from './pagination';

/** Roles, each including the rights of those after it: OWNER ⊃ ADMIN ⊃ MEMBER ⊃ VIEWER. */
export const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
export const roleSchema = z.enum(ROLES).meta({ id: 'Role' });
export type Role = z.infer<typeof roleSchema>;

export const organizationSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    plan: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof organizationSchema>;

export const updateOrganizationRequestSchema = requestBody(
  z.object({
    name: nameSchema.optional(),
    plan: singleLineTextSchema.max(64).optional(),
  }),
);

export const passwordSchema = z
  .string()
  .min(12, 'at least 12 characters')
  .max(256);

export const signupRequestSchema = requestBody(
  z.object({
    email: emailSchema,
    password: passwordSchema.describe(
      "The new account's password; with an invitation for an email that has an account already, that account's password",
    ),
    invitationToken: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe(
        "An organization's invitation (POST /memberships): joins that organization with the invited role instead of creating one",
      ),
    plan: singleLineTextSchema.min(1).max(64).optional(),
  }),
);

export const signupResponseSchema = z.object({
  data: z.object({ organizationId: idSchema, userId: idSchema }),
});

export const tokenRequestSchema = requestBody(
  z.object({
    email: emailSchema,
    password: z.string().min(1).max(256),
    organizationId: idSchema
      .optional()
      .describe('The organization to act in; the oldest membership by default'),
  }),
);

export const accessTokenSchema = z
  .object({
    accessToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresAt: timestampSchema,
  })
  .meta({ id: 'AccessToken' });

export const membershipSchema = z
  .object({
    createdAt: timestampSchema,
    email: z.string(),
    id: idSchema,
    organizationId: idSchema,
    role: roleSchema,
    updatedAt: timestampSchema,
    fullName: z.string().optional(),
    invitationId: idSchema.optional(),
    invitedEmail: z.string().optional(),
    shortName: z.string().optional(),
    userId: idSchema.optional(),
  })
  .meta({ id: 'Membership' });
export type Membership = z.infer<typeof membershipSchema>;

export const createMembershipRequestSchema = requestBody(
  z.object({ email: emailSchema, role: roleSchema }),
);

export const updateMembershipRequestSchema = requestBody(
  z.object({ role: roleSchema }),
);

export const membershipInvitationSchema = membershipSchema
  .extend({
    invitationToken: z
      .string()
      .describe('Hand it to the invited person; it is shown only once'),
  })
  .meta({ id: 'MembershipInvitation' });

export const serviceAccountSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    name: z.string(),
    description: z.string().optional(),
    role: roleSchema,
    createdById: idSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'ServiceAccount' });
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export const createServiceAccountRequestSchema = requestBody(
  z.object({
    name: nameSchema,
    description: descriptionSchema.optional(),
    role: roleSchema.exclude(['OWNER']),
  }),
);

export const API_KEY_OWNER_TYPES = ['MEMBERSHIP', 'SERVICE_ACCOUNT'] as const;
export const apiKeyOwnerTypeSchema = z
  .enum(API_KEY_OWNER_TYPES)
  .meta({ id: 'ApiKeyOwnerType' });

export const apiKeySchema = z
  .object({
    createdAt: timestampSchema,
    createdById: idSchema,
    id: idSchema,
    keySuffix: z.string(),
    name: z.string(),
    organizationId: idSchema,
    ownerId: idSchema,
    ownerType: apiKeyOwnerTypeSchema,
    updatedAt: timestampSchema,
    description: z.string().optional(),
    expiresAt: timestampSchema.optional(),
    lastUsedAt: timestampSchema.optional(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyWithSecretSchema = apiKeySchema
  .extend({
    key: z.string().describe('The key itself; it is shown only once'),
  })
  .meta({ id: 'ApiKeyWithSecret' });

export const createApiKeyRequestSchema = requestBody(
  z
    .object({
      name: nameSchema,
      description: descriptionSchema.optional(),
      expiresAt: timestampSchema.optional(),
      ownerType: apiKeyOwnerTypeSchema.optional(),
      ownerId: idSchema.optional(),
    })
    .refine(v => (v.ownerType === undefined) === (v.ownerId === undefined), {
      message: 'ownerType and ownerId go together',
      path: ['ownerId'],
    }),
);

export const listApiKeysQuerySchema = pageQuerySchema
  .extend({
    ownerType: apiKeyOwnerTypeSchema.optional(),
    ownerId: idSchema.optional(),
  })
  .refine(v => (v.ownerType === undefined) === (v.ownerId === undefined), {
    message: 'ownerType and ownerId go together',
    path: ['ownerId'],
  });

/** Who the service takes the caller to be: their organization, role and membership there. */
export const currentCallerSchema = z
  .object({
    organizationId: idSchema,
    role: roleSchema,
    principalType: z.enum([
      'membership',
      'service-account',
      'backstage-service',
    ]),
    membershipId: idSchema
      .optional()
      .describe(
        "The caller's own membership when the caller is a member: what they may do to themselves (lower their role, leave, revoke their keys) others may not",
      ),
  })
  .meta({ id: 'CurrentCaller' });
export type CurrentCaller = z.infer<typeof currentCallerSchema>;
