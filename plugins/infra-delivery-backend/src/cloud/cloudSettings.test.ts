import { ConfigReader } from '@backstage/config';
import { JsonObject } from '@backstage/types';
import { createTemplatePublisher, readCloudSettings } from './cloudSettings';
import { S3TemplatePublisher } from '../providers/aws/S3TemplatePublisher';

const aws = {
  driver: 'aws',
  platformPrincipalArn: 'arn:aws:iam::999999999999:role/infra-delivery',
  region: 'eu-central-1',
};

function settingsOf(cloud: JsonObject) {
  return readCloudSettings(new ConfigReader({ cloud }));
}

describe('readCloudSettings', () => {
  it('reads the template bucket of the aws driver, in the cloud region by default', () => {
    const settings = settingsOf({
      ...aws,
      templateBucket: { bucket: 'acme-onboarding' },
    });

    expect(settings.templateBucket).toEqual({
      bucket: 'acme-onboarding',
      region: 'eu-central-1',
      keyPrefix: 'infra-delivery/onboarding-templates/',
    });
    expect(createTemplatePublisher(settings)).toBeInstanceOf(
      S3TemplatePublisher,
    );
  });

  it('takes the bucket region and key prefix as given, ending the prefix with a slash (/ is the root)', () => {
    expect(
      settingsOf({
        ...aws,
        templateBucket: {
          bucket: 'acme-onboarding',
          region: 'us-west-2',
          keyPrefix: '/portal/templates',
        },
      }).templateBucket,
    ).toEqual({
      bucket: 'acme-onboarding',
      region: 'us-west-2',
      keyPrefix: 'portal/templates/',
    });
    expect(
      settingsOf({
        ...aws,
        templateBucket: { bucket: 'acme-onboarding', keyPrefix: '/' },
      }).templateBucket?.keyPrefix,
    ).toBe('');
  });

  it('publishes nothing without a bucket, or with the local driver', () => {
    const withoutBucket = settingsOf(aws);
    expect(withoutBucket.templateBucket).toBeUndefined();
    expect(createTemplatePublisher(withoutBucket)).toBeUndefined();

    const local = settingsOf({
      driver: 'local',
      templateBucket: { bucket: 'acme-onboarding' },
    });
    expect(local.templateBucket).toBeUndefined();
    expect(createTemplatePublisher(local)).toBeUndefined();
  });

  it('refuses a bucket name S3 would refuse', () => {
    expect(() =>
      settingsOf({ ...aws, templateBucket: { bucket: 'Acme_Onboarding' } }),
    ).toThrow(/must be an S3 bucket name/);
  });

  it('keeps template URLs within the seven days of a presigned S3 URL', () => {
    expect(settingsOf({ ...aws, templateUrlTtlSeconds: 604800 })).toMatchObject(
      { templateUrlTtlSeconds: 604800 },
    );
    expect(() => settingsOf({ ...aws, templateUrlTtlSeconds: 604801 })).toThrow(
      /templateUrlTtlSeconds/,
    );
  });
});
