import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerCloudRoutes({ bind, services, cursors }: RouteContext) {
  const { cloudAccounts, cloudOnboarding, cloudMetrics } = services;

  bind(operations.createCloudAccount, async ({ caller, body }) => ({
    data: await cloudAccounts.create(caller, body.data),
  }));

  bind(operations.listCloudAccounts, async ({ caller, query }) => {
    const scope = pageScope('cloud-accounts', caller.organizationId);
    return cursors.list(query, scope, page => cloudAccounts.list(caller, page));
  });

  bind(operations.getCloudAccount, async ({ caller, params }) => ({
    data: await cloudAccounts.get(caller, params.id),
  }));

  bind(operations.updateCloudAccount, async ({ caller, params, body }) => ({
    data: await cloudAccounts.rename(caller, params.id, body.data),
  }));

  bind(operations.deleteCloudAccount, async ({ caller, params }) => {
    await cloudAccounts.delete(caller, params.id);
  });

  bind(operations.getCloudAccountTemplateUrl, async ({ caller, params }) => ({
    data: await cloudOnboarding.templateUrl(caller, params.id),
  }));

  bind(
    operations.getCloudAccountOnboardingTemplate,
    async ({ params, query, res }) => {
      const template = await cloudOnboarding.renderTemplate(params.id, query);
      // Each download carries a fresh one-time token: nothing may keep a copy.
      res.setHeader('Cache-Control', 'no-store');
      // Saved as a YAML file: the portal's "Download the template" saved one without a name.
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="infra-delivery-onboarding-${params.id}.yaml"`,
      );
      return template;
    },
  );

  bind(operations.completeCloudAccountOnboarding, async ({ body }) => ({
    data: await cloudOnboarding.completeOnboarding(body.data),
  }));

  if (cloudOnboarding.connectsLocally) {
    bind(operations.connectCloudAccountLocally, async ({ caller, params }) => ({
      data: await cloudOnboarding.connectLocally(caller, params.id),
    }));
  }

  bind(operations.getCloudMetric, async ({ caller, query }) =>
    cloudMetrics.getMetric(caller, query),
  );
}
