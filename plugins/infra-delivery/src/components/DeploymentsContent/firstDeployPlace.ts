import {
  ANNOTATION_CLOUD_ACCOUNT,
  ANNOTATION_ENVIRONMENT,
  ANNOTATION_PROJECT,
  ANNOTATION_REGION,
  awsRegionSchema,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * Where the first deployment of a service goes, as its catalog entity's annotations say: the
 * service (`infra-delivery.io/ecs-service`), the cloud account and region it runs in, and the
 * project and environment (ids, or given ids as the catalog module writes them) it is
 * recorded under.
 */
export interface FirstDeployPlace {
  clusterRef: string;
  serviceRef: string;
  cloudAccountId: string;
  region: string;
  project: string;
  environment: string;
}

/** The annotations a first deployment reads, in the order a missing one is named. */
const NEEDED = [
  ANNOTATION_PROJECT,
  ANNOTATION_ENVIRONMENT,
  ANNOTATION_CLOUD_ACCOUNT,
  ANNOTATION_REGION,
] as const;

/** "a, b and c". */
function listed(names: string[]): string {
  return names.length > 1
    ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
    : names.join('');
}

/**
 * Where a service with no deployment yet would be deployed, from its entity's annotations; or,
 * when they do not say, why not, naming each annotation that is missing or wrong, as the
 * disabled Deploy says it.
 */
export function firstDeployPlaceOf(
  annotations: Record<string, string | undefined>,
  service: { clusterRef: string; serviceRef: string },
): { place: FirstDeployPlace } | { reason: string } {
  const value = (name: string) => annotations[name]?.trim() ?? '';
  const missing = NEEDED.filter(name => !value(name));
  const region = value(ANNOTATION_REGION);
  const wrongRegion =
    region && !awsRegionSchema.safeParse(region).success
      ? ` ${ANNOTATION_REGION} "${region}" is not an AWS region such as eu-west-1.`
      : '';
  if (missing.length > 0 || wrongRegion) {
    const lacks = missing.length
      ? ` Its catalog entity lacks ${listed([...missing])}.`
      : '';
    return {
      reason: `No deployment of ${service.serviceRef} yet: the first one takes where it goes from the entity's annotations.${lacks}${wrongRegion}`,
    };
  }
  return {
    place: {
      ...service,
      cloudAccountId: value(ANNOTATION_CLOUD_ACCOUNT),
      region,
      project: value(ANNOTATION_PROJECT),
      environment: value(ANNOTATION_ENVIRONMENT),
    },
  };
}
