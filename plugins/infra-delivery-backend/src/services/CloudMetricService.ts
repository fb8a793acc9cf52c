import {
  CloudMetric,
  CloudMetricQuery,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ } from '../auth/requirements';
import { CloudContext } from '../cloud/cloudContext';
import { normaliseMetricQuery } from '../cloud/metricQuery';
import { CloudAccountAccess } from '../providers/CloudProvider';
import { Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';
import { BoundedMap } from '../lib/BoundedMap';
import { requireCloudAccount } from './CloudAccountService';

/** Connected accounts an instance remembers for the metric requests. */
const REMEMBERED_ACCOUNTS = 1_000;

/** #15: metric series of connected accounts, rules first, through the cache. */
export class CloudMetricService {
  /**
   * Connected accounts by organization and id, with the access epoch they were read under.
   * Deleting an account and recording its connection move the epoch
   * (database/CloudAccountStore.ts), so an account remembered under the epoch the caller was
   * found valid under is still as remembered for this request: a cached series is then
   * answered without reading the database at all beyond the epoch (optimization 25).
   */
  private readonly connected = new BoundedMap<
    string,
    { account: CloudAccountAccess; epoch: number }
  >(REMEMBERED_ACCOUNTS);

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
    const account = await this.connectedAccount(caller, query.cloudAccountId);
    const { cloud } = this.deps;
    return cloud.metricCache.getOrFetch(caller.organizationId, query, () =>
      cloud.provider.getMetricData(account, query),
    );
  }

  /** The account, which must be connected: remembered under the caller's epoch, or read. */
  private async connectedAccount(
    caller: Caller,
    cloudAccountId: string,
  ): Promise<CloudAccountAccess> {
    const key = `${caller.organizationId}/${cloudAccountId}`;
    const { accessEpoch } = caller;
    const remembered = this.connected.get(key);
    if (remembered && remembered.epoch === accessEpoch) {
      return remembered.account;
    }
    const account = await requireCloudAccount(
      this.deps.stores,
      caller.organizationId,
      cloudAccountId,
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
    const connected: CloudAccountAccess = {
      cloudAccountId: account.id,
      givenId: account.givenId,
      cloudId: account.cloudId,
      roleArn,
      externalId: account.externalId,
    };
    if (accessEpoch !== undefined) {
      this.connected.set(key, { account: connected, epoch: accessEpoch });
    }
    return connected;
  }
}
