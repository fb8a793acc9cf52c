import {
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { InfraDeliveryError } from '../../errors';

/** `infraDelivery.cloud.templateBucket`: where the AWS driver publishes onboarding templates. */
export interface TemplateBucketSettings {
  bucket: string;
  region: string;
  /** Prepended to every object key; empty or ending with `/`. */
  keyPrefix: string;
}

/** One account's onboarding template for one role policy version. */
export interface TemplatePublication {
  cloudAccountId: string;
  version: string;
  body: string;
  /** How long the returned URL reads the template, at most seven days. */
  expiresInSeconds: number;
}

/**
 * Puts onboarding templates where CloudFormation can read them: the console's quick-create
 * page and `CreateStack` accept a `templateURL` on Amazon S3 only.
 */
export interface TemplatePublisher {
  /** Stores the template and answers a URL that reads it for `expiresInSeconds`. */
  publish(publication: TemplatePublication): Promise<string>;
}

const ACCESS_DENIED = new Set([
  'AccessDenied',
  'AllAccessDisabled',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
]);

/** The object key of an account's template: one object per account and role version. */
export function templateObjectKey(
  keyPrefix: string,
  publication: Pick<TemplatePublication, 'cloudAccountId' | 'version'>,
): string {
  return `${keyPrefix}${publication.cloudAccountId}/onboarding-v${publication.version}.yaml`;
}

/**
 * Publishes to the platform's own bucket with the platform's own credentials (the AWS default
 * provider chain, as for STS): PutObject without any ACL, so the object stays private, and a
 * presigned GetObject URL as the only way to read it. A new template for the same account and
 * version replaces the object, so older links read the newest template.
 */
export class S3TemplatePublisher implements TemplatePublisher {
  private readonly s3: S3Client;

  constructor(private readonly bucket: TemplateBucketSettings, s3?: S3Client) {
    this.s3 = s3 ?? new S3Client({ region: bucket.region });
  }

  async publish(publication: TemplatePublication): Promise<string> {
    const location = {
      Bucket: this.bucket.bucket,
      Key: templateObjectKey(this.bucket.keyPrefix, publication),
    };
    try {
      await this.s3.send(
        new PutObjectCommand({
          ...location,
          Body: publication.body,
          ContentType: 'application/x-yaml',
          // The template carries a one-time onboarding token: no cache may keep it.
          CacheControl: 'no-store',
        }),
      );
      return await getSignedUrl(this.s3, new GetObjectCommand(location), {
        expiresIn: publication.expiresInSeconds,
      });
    } catch (error) {
      throw publicationError(error, location);
    }
  }
}

/**
 * S3's refusal as the ErrorBody of a server error (the template-url operation answers 401,
 * 403, 404 or 500): the bucket is the platform's, so the portal's operators act on it, not
 * the caller.
 */
function publicationError(
  error: unknown,
  location: { Bucket: string; Key: string },
): InfraDeliveryError {
  const name = error instanceof Error ? error.name : 'UnknownError';
  const metadata = {
    bucket: location.Bucket,
    key: location.Key,
    awsErrorCode: name,
  };
  if (ACCESS_DENIED.has(name)) {
    return new InfraDeliveryError({
      status: 500,
      entity: 'CloudAccountTemplate',
      reason: 'PUBLICATION_DENIED',
      message: `AWS denied the service writing the onboarding template to S3 bucket ${location.Bucket}`,
      description:
        'Grant the service s3:PutObject and s3:GetObject on the bucket and key prefix, or remove infraDelivery.cloud.templateBucket to offer the template for download only.',
      metadata,
      cause: error,
    });
  }
  if (name === 'CredentialsProviderError') {
    return new InfraDeliveryError({
      status: 500,
      entity: 'CloudAccountTemplate',
      reason: 'NO_CREDENTIALS',
      message: `The service found no AWS credentials to publish onboarding templates to S3 bucket ${location.Bucket}`,
      description:
        'Give the backend AWS credentials through the default provider chain (environment, shared config, container or instance role).',
      metadata,
      cause: error,
    });
  }
  if (name === 'NoSuchBucket') {
    return new InfraDeliveryError({
      status: 500,
      entity: 'CloudAccountTemplate',
      reason: 'BUCKET_NOT_FOUND',
      message: `S3 bucket ${location.Bucket} of onboarding templates does not exist`,
      description:
        'Create the bucket, or correct infraDelivery.cloud.templateBucket.',
      metadata,
      cause: error,
    });
  }
  return new InfraDeliveryError({
    status: 500,
    entity: 'CloudAccountTemplate',
    reason: 'PUBLICATION_FAILED',
    message: `Publishing the onboarding template to S3 bucket ${location.Bucket} failed (${name})`,
    description:
      'S3 may be unavailable or throttling the service: ask for the template URL again in a few seconds.',
    metadata,
    cause: error,
  });
}
