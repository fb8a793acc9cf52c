import { createBackend } from '@backstage/backend-defaults';
import { startOneInstanceAtATime } from '@infra-delivery/plugin-infra-delivery-backend';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));

// Sign-in: the guest provider for local use; see https://backstage.io/docs/auth/
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));

backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(
  import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
);
backend.add(import('@backstage/plugin-catalog-backend-module-logs'));
// Projects, environments and stacks of the infra-delivery service as catalog entities.
backend.add(
  import('@infra-delivery/plugin-catalog-backend-module-infra-delivery'),
);

// Admin users and groups (permission.policy.admins) may do everything, everybody else reads.
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(
  import('@infra-delivery/plugin-permission-backend-module-admin-groups'),
);

backend.add(import('@backstage/plugin-scaffolder-backend'));
// Scaffolder actions that create stacks, trigger runs and register cloud accounts.
backend.add(
  import('@infra-delivery/plugin-scaffolder-backend-module-infra-delivery'),
);
backend.add(import('@backstage/plugin-signals-backend'));
// Approvals waiting, failed runs and deployments, and drift, to the owners concerned.
backend.add(import('@backstage/plugin-notifications-backend'));
backend.add(import('@backstage/plugin-mcp-actions-backend'));
// Where the app keeps each user's settings (theme, starred entities) across browsers.
backend.add(import('@backstage/plugin-user-settings-backend'));

backend.add(import('@infra-delivery/plugin-infra-delivery-backend'));

// Instances started together on one PostgreSQL server start one after the other: Backstage
// core's own migrations are not safe to race (backstage/charts#300).
startOneInstanceAtATime(backend);
