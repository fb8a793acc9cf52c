import { Config } from '@backstage/config';
import { AwsCloudProvider } from '../providers/aws/AwsCloudProvider';
import { CloudProvider } from '../providers/CloudProvider';
import { LocalCloudProvider } from '../providers/local/LocalCloudProvider';
import {
  S3TemplatePublisher,
  TemplateBucketSettings,
  TemplatePublisher,
} from '../providers/aws/S3TemplatePublisher';
import { MAX_TEMPLATE_URL_TTL_SECONDS } from './templateUrls';

/** `infraDelivery.cloud`; config.d.ts documents each key. */
export interface CloudSettings {
  driver: 'aws' | 'local';
  /** The IAM principal the onboarding role trusts. */
  platformPrincipalArn: string;
  /** Region of STS calls and of the console's quick-create page. */
  region: string;
  templateUrlTtlSeconds: number;
  /**
   * Set only with the aws driver: the console's quick-create page reads `templateURL` from
   * Amazon S3 only, so without a bucket the service offers no quick-create link.
   */
  templateBucket?: TemplateBucketSettings;
}

/**
 * The local driver never calls AWS, so its templates may name a placeholder principal; the
 * AWS driver must be told which principal the service runs as.
 */
const LOCAL_PLACEHOLDER_PRINCIPAL = 'arn:aws:iam::000000000000:root';

/** S3's rules for bucket names (3–63 lowercase letters, digits, dots and hyphens). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const DEFAULT_KEY_PREFIX = 'infra-delivery/onboarding-templates/';

function readTemplateBucket(
  config: Config,
  defaultRegion: string,
): TemplateBucketSettings | undefined {
  const bucketConfig = config.getOptionalConfig('cloud.templateBucket');
  if (!bucketConfig) {
    return undefined;
  }
  const bucket = bucketConfig.getString('bucket');
  if (!BUCKET_NAME.test(bucket)) {
    throw new Error(
      `infraDelivery.cloud.templateBucket.bucket must be an S3 bucket name, not ${bucket}`,
    );
  }
  const prefix = (
    bucketConfig.getOptionalString('keyPrefix') ?? DEFAULT_KEY_PREFIX
  ).replace(/^\/+/, '');
  return {
    bucket,
    region: bucketConfig.getOptionalString('region') ?? defaultRegion,
    keyPrefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

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
  const region = config.getOptionalString('cloud.region') ?? 'us-east-1';
  // The local driver never calls AWS, so a bucket configured for it is not used.
  const templateBucket =
    driver === 'aws' ? readTemplateBucket(config, region) : undefined;
  return {
    driver,
    platformPrincipalArn:
      driver === 'aws'
        ? config.getString('cloud.platformPrincipalArn')
        : config.getOptionalString('cloud.platformPrincipalArn') ??
          LOCAL_PLACEHOLDER_PRINCIPAL,
    region,
    templateUrlTtlSeconds,
    ...(templateBucket ? { templateBucket } : {}),
  };
}

export function createCloudProvider(settings: CloudSettings): CloudProvider {
  return settings.driver === 'aws'
    ? new AwsCloudProvider({ region: settings.region })
    : new LocalCloudProvider();
}

/** The publisher of onboarding templates, when the AWS driver has a bucket for them. */
export function createTemplatePublisher(
  settings: CloudSettings,
): TemplatePublisher | undefined {
  return settings.templateBucket
    ? new S3TemplatePublisher(settings.templateBucket)
    : undefined;
}
