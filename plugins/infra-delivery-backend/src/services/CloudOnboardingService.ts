import { AuditorService } from '@backstage/backend-plugin-api';
import {
  CloudAccount,
  CloudAccountTemplateUrl,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { ADMINISTER } from '../auth/requirements';
import { CloudContext } from '../cloud/cloudContext';
import { buildOnboardingTemplate } from '../cloud/onboardingTemplate';
import { ONBOARDING_TOKEN_TTL_SECONDS } from '../cloud/onboardingTokens';
import {
  isNewerRoleVersion,
  latestRolePolicy,
  RolePolicyVersion,
  rolePolicyVersion,
} from '../cloud/rolePolicy';
import { quickCreateUrl } from '../cloud/templateUrls';
import { CloudAccountRecord } from '../database/CloudAccountStore';
import { isUniqueViolation } from '../database/dbErrors';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';
import { requireCloudAccount, toCloudAccount } from './CloudAccountService';

export interface OnboardingCallback {
  cloudAccountId: string;
  token: string;
  roleArn: string;
  stackId: string;
}

function stackNameOf(account: CloudAccountRecord): string {
  return `infra-delivery-${account.givenId}`;
}

/** `arn:partition:service:region:account:…` → the account. */
function awsAccountOf(arn: string): string | undefined {
  return arn.split(':')[4];
}

function conflict(reason: string, message: string) {
  return new InfraDeliveryError({
    status: 409,
    entity: 'CloudAccount',
    reason,
    message,
  });
}

/**
 * Onboarding: a signed template URL (ADMIN), the template behind it (its signature is the
 * credential; each download mints a one-hour onboarding JWT for the account), with the AWS
 * driver and a bucket also a copy in S3 for the console's quick-create link, and the callback
 * through which the template's custom resource reports the role. The callback connects an
 * account that awaits connection, or upgrades one connected with an older role version; each
 * token works once.
 */
export class CloudOnboardingService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      cloud: CloudContext;
    },
  ) {}

  /** Whether accounts connect without AWS (the local driver's `connect-local`). */
  get connectsLocally(): boolean {
    return this.deps.cloud.provider.driver === 'local';
  }

  async templateUrl(
    caller: Caller,
    id: string,
  ): Promise<CloudAccountTemplateUrl> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    const { cloud } = this.deps;
    const account = await requireCloudAccount(
      this.deps.stores,
      caller.organizationId,
      id,
    );
    const version = latestRolePolicy.version;
    const expires =
      Math.floor(Date.now() / 1000) + cloud.settings.templateUrlTtlSeconds;
    // The URL is a credential (whoever holds it can connect the account until it expires).
    return audit(
      this.deps.auditor,
      'cloud-account-template-issue',
      caller,
      {
        cloudAccountId: id,
        roleVersion: version,
        expires,
        publishedToS3: cloud.templatePublisher !== undefined,
      },
      async () => {
        const query = new URLSearchParams({
          version,
          expires: String(expires),
          signature: cloud.templateUrls.sign({
            cloudAccountId: id,
            version,
            expires,
          }),
        });
        const templateUrl = `${await cloud.externalBaseUrl()}/cloud-accounts/${encodeURIComponent(
          id,
        )}/onboarding-template?${query.toString()}`;
        const quickCreate = await this.publishForQuickCreate(account, expires);
        return {
          templateUrl,
          version,
          ...(account.templateStackId
            ? { templateStackId: account.templateStackId }
            : {}),
          ...(quickCreate ? { quickCreateUrl: quickCreate } : {}),
        };
      },
    );
  }

  /**
   * The console's quick-create link, which exists only when templates are published to S3
   * (CloudFormation reads `templateURL` from S3 only). The published object cannot mint a token
   * per download, so its token lives as long as the presigned URL: that grants no more than the
   * signed plugin URL does (a fresh token on every download until it expires), and the token
   * still connects this one account, once.
   */
  private async publishForQuickCreate(
    account: CloudAccountRecord,
    expires: number,
  ): Promise<string | undefined> {
    const { cloud } = this.deps;
    if (!cloud.templatePublisher) {
      return undefined;
    }
    const now = new Date();
    const expiresInSeconds = expires - Math.floor(now.getTime() / 1000);
    const body = await this.templateOf(account, latestRolePolicy, {
      now,
      tokenTtlSeconds: expiresInSeconds,
    });
    const s3Url = await cloud.templatePublisher.publish({
      cloudAccountId: account.id,
      version: latestRolePolicy.version,
      body,
      expiresInSeconds,
    });
    return quickCreateUrl({
      region: cloud.settings.region,
      templateUrl: s3Url,
      stackName: stackNameOf(account),
    });
  }

  /** The template of a signed URL, with a fresh onboarding JWT as a parameter default. */
  async renderTemplate(
    id: string,
    signed: { version: string; expires: number; signature: string },
  ): Promise<string> {
    const { cloud } = this.deps;
    cloud.templateUrls.verify(
      { cloudAccountId: id, version: signed.version, expires: signed.expires },
      signed.signature,
    );
    const policy = rolePolicyVersion(signed.version);
    const account = await this.deps.stores.cloudAccounts.getBySignedId(id);
    if (!policy || !account) {
      throw notFound('CloudAccount', id);
    }
    return this.templateOf(account, policy, {
      now: new Date(),
      tokenTtlSeconds: ONBOARDING_TOKEN_TTL_SECONDS,
    });
  }

  private async templateOf(
    account: CloudAccountRecord,
    policy: RolePolicyVersion,
    token: { now: Date; tokenTtlSeconds: number },
  ): Promise<string> {
    const { cloud } = this.deps;
    const baseUrl = await cloud.externalBaseUrl();
    return buildOnboardingTemplate({
      cloudAccountId: account.id,
      cloudId: account.cloudId,
      externalId: account.externalId,
      onboardingToken: await cloud.onboardingTokens.issue(
        {
          cloudAccountId: account.id,
          organizationId: account.organizationId,
          roleVersion: policy.version,
        },
        token.now,
        token.tokenTtlSeconds,
      ),
      onboardingTokenExpiresAt: new Date(
        (Math.floor(token.now.getTime() / 1000) + token.tokenTtlSeconds) * 1000,
      ),
      platformPrincipalArn: cloud.settings.platformPrincipalArn,
      callbackUrl: `${baseUrl}/cloud-accounts/onboarding-callback`,
      policy,
    });
  }

  /**
   * Verifies the JWT (signature, audience = the account, expiry), consumes its id, checks the
   * account still awaits connection or upgrades, and records the role: all in one transaction.
   */
  async completeOnboarding(
    callback: OnboardingCallback,
    caller?: Caller,
  ): Promise<CloudAccount> {
    const claims = await this.deps.cloud.onboardingTokens.verify(
      callback.token,
      callback.cloudAccountId,
    );
    const { organizationId, roleVersion } = claims;
    return audit(
      this.deps.auditor,
      'cloud-account-connect',
      caller,
      {
        organizationId,
        cloudAccountId: callback.cloudAccountId,
        roleVersion,
        roleArn: callback.roleArn,
        via: caller ? 'local-driver' : 'onboarding-callback',
      },
      () =>
        this.deps.stores.transaction(async tx => {
          const account = await requireCloudAccount(
            tx,
            organizationId,
            callback.cloudAccountId,
          );
          try {
            await tx.cloudAccounts.recordTokenUse({
              jti: claims.jti,
              cloudAccountId: account.id,
              expiresAt: claims.expiresAt.toISOString(),
            });
          } catch (error) {
            if (isUniqueViolation(error)) {
              throw conflict(
                'ONBOARDING_TOKEN_USED',
                'This onboarding token was used already; each token connects once',
              );
            }
            throw error;
          }
          const upgrade =
            account.status === 'CONNECTED' &&
            isNewerRoleVersion(roleVersion, account.roleVersion);
          if (account.status !== 'AWAITING_CONNECTION' && !upgrade) {
            throw conflict(
              'ALREADY_CONNECTED',
              `Cloud account ${account.givenId} is connected with role version ${account.roleVersion} already`,
            );
          }
          for (const arn of [callback.roleArn, callback.stackId]) {
            if (awsAccountOf(arn) !== account.cloudId) {
              throw new InfraDeliveryError({
                status: 400,
                entity: 'CloudAccount',
                reason: 'OTHER_AWS_ACCOUNT',
                message: `${arn} is not in AWS account ${account.cloudId}`,
              });
            }
          }
          const recorded = await tx.cloudAccounts.recordConnection(
            organizationId,
            account.id,
            { status: account.status, roleVersion: account.roleVersion },
            {
              cloudRef: callback.roleArn,
              roleVersion,
              templateStackId: callback.stackId,
            },
          );
          if (!recorded) {
            throw conflict(
              'CONNECTION_RACE',
              'The account changed while connecting; retry',
            );
          }
          return toCloudAccount(
            await requireCloudAccount(tx, organizationId, account.id),
          );
        }),
    );
  }

  /**
   * The local driver's connect action: the same callback logic, with a token issued here and
   * a role ARN and stack id of the shape AWS would report.
   */
  async connectLocally(caller: Caller, id: string): Promise<CloudAccount> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    const { cloud } = this.deps;
    const account = await requireCloudAccount(
      this.deps.stores,
      caller.organizationId,
      id,
    );
    const token = await cloud.onboardingTokens.issue({
      cloudAccountId: id,
      organizationId: caller.organizationId,
      roleVersion: latestRolePolicy.version,
    });
    return this.completeOnboarding(
      {
        cloudAccountId: id,
        token,
        roleArn: `arn:aws:iam::${account.cloudId}:role/infra-delivery/local-driver`,
        stackId: `arn:aws:cloudformation:${cloud.settings.region}:${
          account.cloudId
        }:stack/${stackNameOf(account)}/${account.id}`,
      },
      caller,
    );
  }
}
