import { Config } from '@backstage/config';
import { AwsCloudProvider } from './AwsCloudProvider';
import { CloudProvider } from './CloudProvider';
import { LocalCloudProvider } from './LocalCloudProvider';
import { MAX_TEMPLATE_URL_TTL_SECONDS } from './templateUrls';

/** `infraDelivery.cloud`; config.d.ts documents each key. */
export interface CloudSettings {
  driver: 'aws' | 'local';
  /** The IAM principal the onboarding role trusts. */
  platformPrincipalArn: string;
  /** Region of STS calls and of the console's quick-create page. */
  region: string;
  templateUrlTtlSeconds: number;
}

/**
 * The local driver never calls AWS, so its templates may name a placeholder principal; the
 * AWS driver must be told which principal the service runs as.
 */
const LOCAL_PLACEHOLDER_PRINCIPAL = 'arn:aws:iam::000000000000:root';

export function readCloudSettings(config: Config): CloudSettings {
  const driver = config.getOptionalString('cloud.driver') ?? 'local';
  if (driver !== 'aws' && driver !== 'local') {
    throw new Error(
      `infraDelivery.cloud.driver must be aws or local, not ${driver}`,
    );
  }
  const templateUrlTtlSeconds =
    config.getOptionalNumber('cloud.templateUrlTtlSeconds') ?? 24 * 3600;
  if (
    !Number.isInteger(templateUrlTtlSeconds) ||
    templateUrlTtlSeconds < 60 ||
    templateUrlTtlSeconds > MAX_TEMPLATE_URL_TTL_SECONDS
  ) {
    throw new Error(
      `infraDelivery.cloud.templateUrlTtlSeconds must be an integer from 60 to ${MAX_TEMPLATE_URL_TTL_SECONDS}`,
    );
  }
  return {
    driver,
    platformPrincipalArn:
      driver === 'aws'
        ? config.getString('cloud.platformPrincipalArn')
        : config.getOptionalString('cloud.platformPrincipalArn') ??
          LOCAL_PLACEHOLDER_PRINCIPAL,
    region: config.getOptionalString('cloud.region') ?? 'us-east-1',
    templateUrlTtlSeconds,
  };
}

export function createCloudProvider(settings: CloudSettings): CloudProvider {
  return settings.driver === 'aws'
    ? new AwsCloudProvider({ region: settings.region })
    : new LocalCloudProvider();
}
