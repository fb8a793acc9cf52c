import {
  readSchedulerServiceTaskScheduleDefinitionFromConfig,
  SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { EntityOptions } from './stackEntities';

const DEFAULT_SCHEDULE: SchedulerServiceTaskScheduleDefinition = {
  frequency: { minutes: 5 },
  timeout: { minutes: 3 },
};

/** givenId → owner entity ref, each value checked to be a string. */
function ownersFrom(config: Config | undefined): Record<string, string> {
  return Object.fromEntries(
    (config?.keys() ?? []).map(givenId => [
      givenId,
      config!.getString(givenId),
    ]),
  );
}

/** `catalog.providers.infraDelivery`, with the defaults filled in. */
export function readProviderConfig(config: Config): {
  schedule: SchedulerServiceTaskScheduleDefinition;
  options: EntityOptions;
} {
  const settings = config.getOptionalConfig('catalog.providers.infraDelivery');
  return {
    schedule: settings?.has('schedule')
      ? readSchedulerServiceTaskScheduleDefinitionFromConfig(
          settings.getConfig('schedule'),
        )
      : DEFAULT_SCHEDULE,
    options: {
      defaultOwner:
        settings?.getOptionalString('defaultOwner') ?? 'group:default/guests',
      projectOwners: ownersFrom(settings?.getOptionalConfig('projectOwners')),
      cloudAccountOwners: ownersFrom(
        settings?.getOptionalConfig('cloudAccountOwners'),
      ),
      portalBaseUrl:
        settings?.getOptionalString('portalBaseUrl') ??
        config.getOptionalString('app.baseUrl'),
    },
  };
}
