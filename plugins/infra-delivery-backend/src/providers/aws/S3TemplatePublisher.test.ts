import {
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { mockClient } from 'aws-sdk-client-mock';
import { InfraDeliveryError } from '../../errors';
import { S3TemplatePublisher, templateObjectKey } from './S3TemplatePublisher';

const s3Mock = mockClient(S3Client);

const bucket = {
  bucket: 'acme-onboarding',
  region: 'eu-west-1',
  keyPrefix: 'infra-delivery/onboarding-templates/',
};
const publication = {
  cloudAccountId: '0190a3f0-0000-7000-8000-000000000001',
  version: '3',
  body: 'AWSTemplateFormatVersion: "2010-09-09"\nResources: {}\n',
  expiresInSeconds: 7 * 24 * 3600,
};

/** A client with the platform's credentials, as the default provider chain would give. */
function platformClient() {
  return new S3Client({
    region: bucket.region,
    credentials: {
      accessKeyId: 'AKIAPLATFORMEXAMPLE',
      secretAccessKey: 'platform-secret',
    },
  });
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(InfraDeliveryError);
    const known = error as InfraDeliveryError;
    errorBodySchema.parse(known.toBody());
    return known;
  }
  throw new Error('expected the publication to fail');
}

function s3Error(name: string, httpStatusCode: number) {
  return new S3ServiceException({
    name,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
    message: `${name} from S3`,
  });
}

beforeEach(() => {
  s3Mock.reset();
});

describe('S3TemplatePublisher', () => {
  it('puts the template under the account and version key, without an ACL', async () => {
    s3Mock.on(PutObjectCommand).resolves({});
    const publisher = new S3TemplatePublisher(bucket, platformClient());

    await publisher.publish(publication);

    const [put] = s3Mock.commandCalls(PutObjectCommand);
    expect(put.args[0].input).toEqual({
      Bucket: 'acme-onboarding',
      Key: `infra-delivery/onboarding-templates/${publication.cloudAccountId}/onboarding-v3.yaml`,
      Body: publication.body,
      ContentType: 'application/x-yaml',
      CacheControl: 'no-store',
    });
    // Reading happens through the presigned URL only, never through the client.
    expect(s3Mock.commandCalls(GetObjectCommand)).toHaveLength(0);
  });

  it('answers a presigned GET of that object, for the asked lifetime of at most seven days', async () => {
    s3Mock.on(PutObjectCommand).resolves({});
    const publisher = new S3TemplatePublisher(bucket, platformClient());

    const url = new URL(await publisher.publish(publication));

    expect(url.hostname).toBe('acme-onboarding.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe(
      `/${templateObjectKey(bucket.keyPrefix, publication)}`,
    );
    expect(url.searchParams.get('X-Amz-Expires')).toBe('604800');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIAPLATFORMEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');

    const shorter = new URL(
      await publisher.publish({ ...publication, expiresInSeconds: 3600 }),
    );
    expect(shorter.searchParams.get('X-Amz-Expires')).toBe('3600');
  });

  it('turns an AccessDenied into an error that names the bucket and the remedy', async () => {
    s3Mock.on(PutObjectCommand).rejects(s3Error('AccessDenied', 403));
    const publisher = new S3TemplatePublisher(bucket, platformClient());

    const error = await refusal(publisher.publish(publication));

    expect(error.status).toBe(500);
    expect(error.toBody()).toEqual({
      code: 'InfraDelivery:CloudAccountTemplate:PUBLICATION_DENIED',
      message:
        'AWS denied the service writing the onboarding template to S3 bucket acme-onboarding',
      description: expect.stringContaining(
        's3:PutObject and s3:GetObject on the bucket and key prefix',
      ),
      metadata: {
        bucket: 'acme-onboarding',
        key: templateObjectKey(bucket.keyPrefix, publication),
        awsErrorCode: 'AccessDenied',
      },
    });
  });

  it('names a missing bucket', async () => {
    s3Mock.on(PutObjectCommand).rejects(s3Error('NoSuchBucket', 404));
    const publisher = new S3TemplatePublisher(bucket, platformClient());

    const error = await refusal(publisher.publish(publication));

    expect(error.code).toBe(
      'InfraDelivery:CloudAccountTemplate:BUCKET_NOT_FOUND',
    );
    expect(error.message).toContain('acme-onboarding');
  });

  it('says so when the service has no AWS credentials to sign with', async () => {
    s3Mock.on(PutObjectCommand).resolves({});
    const publisher = new S3TemplatePublisher(
      bucket,
      new S3Client({
        region: bucket.region,
        credentials: async () => {
          // What the SDK's default provider chain throws when no source has credentials.
          throw Object.assign(
            new Error('Could not load credentials from any providers'),
            { name: 'CredentialsProviderError' },
          );
        },
      }),
    );

    const error = await refusal(publisher.publish(publication));

    expect(error.code).toBe(
      'InfraDelivery:CloudAccountTemplate:NO_CREDENTIALS',
    );
    expect(error.description).toContain('default provider chain');
  });

  it('asks to retry when S3 slows the service down', async () => {
    s3Mock.on(PutObjectCommand).rejects(s3Error('SlowDown', 503));
    const publisher = new S3TemplatePublisher(bucket, platformClient());

    const error = await refusal(publisher.publish(publication));

    expect(error.code).toBe(
      'InfraDelivery:CloudAccountTemplate:PUBLICATION_FAILED',
    );
    expect(error.message).toContain('SlowDown');
    expect(error.description).toContain('again in a few seconds');
  });
});
