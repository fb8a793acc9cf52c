import { now } from './infraDeliveryTestKit';

/** The organization's one owner, signed up. */
export const ownerMembership = {
  id: 'm1',
  organizationId: 'o1',
  email: 'owner@example.com',
  role: 'OWNER',
  userId: 'u1',
  createdAt: now,
  updatedAt: now,
};

/** A service account for a runner, created by the owner. */
export const runnerServiceAccount = {
  id: 'sa1',
  organizationId: 'o1',
  name: 'ci-runner',
  role: 'MEMBER',
  createdById: 'm1',
  createdAt: now,
  updatedAt: now,
};
