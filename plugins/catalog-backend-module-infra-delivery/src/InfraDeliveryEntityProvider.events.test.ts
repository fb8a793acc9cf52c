import { mockServices } from '@backstage/backend-test-utils';
import { EntityProviderConnection } from '@backstage/plugin-catalog-node';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { CATALOG_CHANGES_TOPIC } from '@infra-delivery/plugin-infra-delivery-node';
import { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';

const options = {
  defaultOwner: 'group:default/platform',
  projectOwners: {},
  cloudAccountOwners: {},
};

/** A service with no objects whose list calls take `readMs` and are counted. */
function slowEmptyService(readMs: number) {
  const reads = { started: 0, inFlight: 0, mostInFlight: 0 };
  const client = {
    call: jest.fn(async () => {
      reads.started += 1;
      reads.inFlight += 1;
      reads.mostInFlight = Math.max(reads.mostInFlight, reads.inFlight);
      await new Promise(resolve => setTimeout(resolve, readMs));
      reads.inFlight -= 1;
      return { data: [], meta: { limit: 500, totalCount: 0 } };
    }),
  } as unknown as InfraDeliveryClient;
  return { client, reads };
}

const announce = (events: ReturnType<typeof mockServices.events>) =>
  events.publish({
    topic: CATALOG_CHANGES_TOPIC,
    eventPayload: { kind: 'stack', id: 's1', change: 'created' },
  });

describe('InfraDeliveryEntityProvider and announced changes', () => {
  it('refreshes once for a burst of changes, without its schedule', async () => {
    const events = mockServices.events();
    const { client } = slowEmptyService(1);
    const applyMutation = jest.fn();
    const provider = new InfraDeliveryEntityProvider({
      client,
      logger: mockServices.logger.mock(),
      events,
      options,
      changeDelayMs: 50,
    });
    await provider.connect({
      applyMutation,
    } as unknown as EntityProviderConnection);
    expect(applyMutation).not.toHaveBeenCalled();

    await Promise.all([announce(events), announce(events), announce(events)]);
    await new Promise(resolve => setTimeout(resolve, 500));
    expect(applyMutation).toHaveBeenCalledTimes(1);
    expect(applyMutation.mock.calls[0][0].type).toBe('full');
  });

  it('reads again after a change announced during a refresh, never two reads at once', async () => {
    const events = mockServices.events();
    const { client, reads } = slowEmptyService(100);
    const applyMutation = jest.fn();
    const provider = new InfraDeliveryEntityProvider({
      client,
      logger: mockServices.logger.mock(),
      events,
      options,
      changeDelayMs: 10,
    });
    await provider.connect({
      applyMutation,
    } as unknown as EntityProviderConnection);

    await announce(events);
    // The first refresh is reading (its list calls take 100 ms each) when this one comes.
    await new Promise(resolve => setTimeout(resolve, 150));
    expect(applyMutation).not.toHaveBeenCalled();
    await announce(events);
    await new Promise(resolve => setTimeout(resolve, 2_000));
    expect(applyMutation).toHaveBeenCalledTimes(2);
    // Two refreshes never overlap: each reads projects, stacks, cloud accounts and code
    // sources (no project, so no environments), one list after the other.
    expect(reads.started).toBe(8);
    expect(reads.mostInFlight).toBe(1);
  });
});
