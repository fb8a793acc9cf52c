import {
  CloudMetric,
  CloudMetricQuery,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ } from '../auth/requirements';
import { CloudContext } from '../cloud/cloudContext';
import { normaliseMetricQuery } from '../cloud/metricQuery';
import { Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';
import { requireCloudAccount } from './CloudAccountService';

/** #15: metric series of connected accounts, rules first, through the cache. */
export class CloudMetricService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      cloud: CloudContext;
    },
  ) {}

  async getMetric(
    caller: Caller,
    input: CloudMetricQuery,
  ): Promise<CloudMetric> {
    await this.deps.authorizer.require(caller, READ);
    const query = normaliseMetricQuery(input);
    const account = await requireCloudAccount(
      this.deps.stores,
      caller.organizationId,
      query.cloudAccountId,
    );
    const roleArn = account.cloudRef;
    if (account.status !== 'CONNECTED' || !roleArn) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'CloudAccount',
        reason: 'NOT_CONNECTED',
        message: `Cloud account ${account.givenId} is not connected yet; finish its onboarding first`,
      });
    }
    const { cloud } = this.deps;
    return cloud.metricCache.getOrFetch(caller.organizationId, query, () =>
      cloud.provider.getMetricData(
        {
          cloudAccountId: account.id,
          givenId: account.givenId,
          cloudId: account.cloudId,
          roleArn,
          externalId: account.externalId,
        },
        query,
      ),
    );
  }
}
