import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { createInfraDeliveryClient } from './createInfraDeliveryClient';

describe('createInfraDeliveryClient', () => {
  const discovery = mockServices.discovery.mock({
    getBaseUrl: async pluginId => `http://backend.test/api/${pluginId}`,
  });
  let requests: Array<{ url: string; authorization: string | null }>;

  beforeEach(() => {
    requests = [];
    jest.spyOn(global, 'fetch').mockImplementation(async (input, init) => {
      requests.push({
        url: String(input),
        authorization: new Headers(init?.headers).get('authorization'),
      });
      return new Response(
        JSON.stringify({ data: [], meta: { limit: 50, totalCount: 0 } }),
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
        },
      );
    });
  });

  afterEach(() => jest.restoreAllMocks());

  it('calls the plugin with a token on behalf of the given user', async () => {
    const auth = mockServices.auth.mock({
      getPluginRequestToken: async () => ({ token: 'user-token' }),
    });
    const onBehalfOf = mockCredentials.user('user:default/ada');
    const client = createInfraDeliveryClient({ discovery, auth, onBehalfOf });

    await client.call('listProjects', { query: { limit: 50 } });

    expect(auth.getPluginRequestToken).toHaveBeenCalledWith({
      onBehalfOf,
      targetPluginId: 'infra-delivery',
    });
    expect(requests).toEqual([
      {
        url: 'http://backend.test/api/infra-delivery/projects?limit=50',
        authorization: 'Bearer user-token',
      },
    ]);
  });

  it('calls on behalf of the calling plugin itself without credentials', async () => {
    const own = mockCredentials.service('plugin:catalog');
    const auth = mockServices.auth.mock({
      getOwnServiceCredentials: async () => own,
      getPluginRequestToken: async () => ({ token: 'service-token' }),
    });
    const client = createInfraDeliveryClient({ discovery, auth });

    await client.call('listProjects', { query: { limit: 50 } });

    expect(auth.getPluginRequestToken).toHaveBeenCalledWith({
      onBehalfOf: own,
      targetPluginId: 'infra-delivery',
    });
    expect(requests[0].authorization).toBe('Bearer service-token');
  });
});
