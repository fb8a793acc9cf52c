import { CacheService, DiscoveryService } from '@backstage/backend-plugin-api';
import { Stores } from '../database/stores';
import { CloudProvider } from '../providers/CloudProvider';
import { CloudSettings, createTemplatePublisher } from './cloudSettings';
import { MetricCache } from './metricCache';
import { OnboardingTokens } from './onboardingTokens';
import { TemplatePublisher } from '../providers/aws/S3TemplatePublisher';
import { TemplateUrlSigner } from './templateUrls';

/** What the plugin hands the router for cloud accounts. */
export interface CloudOptions {
  settings: CloudSettings;
  provider: CloudProvider;
}

/** Everything the cloud services need besides stores and authorization. */
export interface CloudContext extends CloudOptions {
  onboardingTokens: OnboardingTokens;
  templateUrls: TemplateUrlSigner;
  metricCache: MetricCache;
  /** Publishes templates to S3 for the console's quick-create link; absent without a bucket. */
  templatePublisher?: TemplatePublisher;
  /** Where callers (and AWS) reach the plugin from outside. */
  externalBaseUrl(): Promise<string>;
}

export async function createCloudContext(
  options: CloudOptions & {
    stores: Stores;
    cache: CacheService;
    discovery: DiscoveryService;
  },
): Promise<CloudContext> {
  const { stores, discovery } = options;
  return {
    settings: options.settings,
    provider: options.provider,
    onboardingTokens: new OnboardingTokens(
      await stores.serviceSecrets.getOrCreate('cloud-onboarding-token-key'),
    ),
    templateUrls: new TemplateUrlSigner(
      await stores.serviceSecrets.getOrCreate('cloud-template-url-key'),
    ),
    metricCache: new MetricCache(options.cache),
    templatePublisher: createTemplatePublisher(options.settings),
    externalBaseUrl: () => discovery.getExternalBaseUrl('infra-delivery'),
  };
}
