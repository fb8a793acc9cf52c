import { Config, ConfigReader } from '@backstage/config';
import { Role, roleSchema } from '@infra-delivery/plugin-infra-delivery-common';
import { DEFAULT_LEASE_SECONDS } from './engine/PipelineEngine';
import { PortalAccessOptions } from './auth/CallerResolver';
import {
  DEFAULT_RUNNER_SETTINGS,
  RunnerSettings,
} from './runners/RunnerRegistry';
import { AuthRateLimits, RateLimit } from './auth/RateLimiter';
import { DEFAULT_SCRYPT_COST } from './auth/passwords';
import { CloudSettings, readCloudSettings } from './cloud/cloudSettings';
import {
  DeploymentSettings,
  readDeploymentSettings,
} from './deployments/deploymentSettings';

/** Self-hosted git-forge servers. */
export interface GitSelfHostedConfig {
  /** `http://` for loopback servers: development and tests only, never production. */
  allowLoopbackHttp: boolean;
}

/** Where the frontend plugin's Infrastructure page is mounted unless `infraDelivery.portalUrl` says. */
export const DEFAULT_PORTAL_PATH = '/infra-delivery';

export interface PluginConfig {
  portalOrganizationName: string;
  /** The frontend plugin's Infrastructure page: links to portal pages start here. */
  portalUrl: string;
  /** Encrypts secrets at rest; without it a key kept in the database is used. */
  secretsKey?: Buffer;
  gitSelfHosted: GitSelfHostedConfig;
  /** Seed the portal organization with demo data at start-up. */
  demoEnabled: boolean;
  signups: SignupMode;
  /** scrypt's cost (log2 of N) for passwords set from now on. */
  passwordScryptCost: number;
  portal: PortalAccessOptions;
  rateLimits: AuthRateLimits;
  cloud: CloudSettings;
  deployments: DeploymentSettings;
  /** How long a runner's lease on a step lasts without a heartbeat. */
  leaseSeconds: number;
  runners: RunnerSettings;
  /** Development: where to keep the local runner's API key (see provisionLocalRunner). */
  localRunnerTokenFile?: string;
}

/**
 * Who may sign up through `POST /auth/signup`: anyone (a new organization of their own, as the
 * specification has it), or only people an organization invited.
 */
export type SignupMode = 'open' | 'invitations-only';

function readSignupMode(config: Config): SignupMode {
  const value = config.getOptionalString('signups') ?? 'open';
  if (value !== 'open' && value !== 'invitations-only') {
    throw new Error(
      `infraDelivery.signups must be "open" or "invitations-only", not "${value}"`,
    );
  }
  return value;
}

function readRateLimit(
  config: Config,
  key: string,
  fallback: RateLimit,
): RateLimit {
  return {
    limit: config.getOptionalNumber(`${key}.limit`) ?? fallback.limit,
    windowSeconds:
      config.getOptionalNumber(`${key}.windowSeconds`) ??
      fallback.windowSeconds,
  };
}

function readSecretsKey(config: Config): Buffer | undefined {
  const value = config.getOptionalString('secretsKey');
  if (value === undefined) {
    return undefined;
  }
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) {
    throw new Error(
      'infraDelivery.secretsKey must be the base64 encoding of 32 random bytes',
    );
  }
  return key;
}

function readRole(config: Config, key: string, fallback: Role): Role {
  const value = config.getOptionalString(key);
  return value === undefined ? fallback : roleSchema.parse(value);
}

/** Reads `infraDelivery.*`; config.d.ts documents each key. */
export function readPluginConfig(root: Config): PluginConfig {
  const config =
    root.getOptionalConfig('infraDelivery') ?? new ConfigReader({});
  return {
    portalOrganizationName:
      config.getOptionalString('portalOrganization.name') ??
      root.getOptionalString('organization.name') ??
      'Portal',
    portalUrl: (
      config.getOptionalString('portalUrl') ??
      `${root.getOptionalString('app.baseUrl') ?? ''}${DEFAULT_PORTAL_PATH}`
    ).replace(/\/+$/, ''),
    demoEnabled: config.getOptionalBoolean('demo.enabled') ?? false,
    signups: readSignupMode(config),
    passwordScryptCost:
      config.getOptionalNumber('passwords.scryptCost') ?? DEFAULT_SCRYPT_COST,
    secretsKey: readSecretsKey(config),
    gitSelfHosted: {
      allowLoopbackHttp: process.env.NODE_ENV !== 'production',
    },
    portal: {
      roleMappings: (config.getOptionalConfigArray('roleMappings') ?? []).map(
        mapping => ({
          entityRef: mapping.getString('entityRef'),
          role: roleSchema.parse(mapping.getString('role')),
        }),
      ),
      defaultRole: readRole(config, 'defaultRole', 'VIEWER'),
      serviceRole: readRole(config, 'serviceRole', 'VIEWER'),
    },
    rateLimits: {
      signupsPerAddress: readRateLimit(config, 'rateLimits.signup', {
        limit: 20,
        windowSeconds: 3600,
      }),
      tokenAttemptsPerAddress: readRateLimit(
        config,
        'rateLimits.tokenPerAddress',
        { limit: 60, windowSeconds: 300 },
      ),
      tokenAttemptsPerEmail: readRateLimit(config, 'rateLimits.tokenPerEmail', {
        limit: 10,
        windowSeconds: 300,
      }),
      apiKeyFailuresPerAddress: readRateLimit(
        config,
        'rateLimits.apiKeyFailuresPerAddress',
        { limit: 100, windowSeconds: 60 },
      ),
    },
    cloud: readCloudSettings(config),
    deployments: readDeploymentSettings(config),
    leaseSeconds:
      config.getOptionalNumber('engine.leaseSeconds') ?? DEFAULT_LEASE_SECONDS,
    runners: {
      onlineSeconds:
        config.getOptionalNumber('runners.onlineSeconds') ??
        DEFAULT_RUNNER_SETTINGS.onlineSeconds,
      retentionDays:
        config.getOptionalNumber('runners.retentionDays') ??
        DEFAULT_RUNNER_SETTINGS.retentionDays,
    },
    localRunnerTokenFile: config.getOptionalString(
      'runners.localRunner.tokenFile',
    ),
  };
}
