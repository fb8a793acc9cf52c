import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { explainFailure } from './refusalHints';

const URL = 'http://portal.example.com/api/infra-deliver';

describe('explainFailure', () => {
  it('says where an API key comes from when the service refuses the token', () => {
    const refused = new InfraDeliveryApiError(401, {
      code: 'InfraDelivery:Auth:UNAUTHORIZED',
      message: 'The token is not valid',
    });

    expect(explainFailure(refused, URL)).toBe(
      "The token is not valid. Pass a service account's API key with --token (or INFRA_DELIVERY_RUNNER_TOKEN); the portal's Connect a runner (Infrastructure → Organization → Runners) creates one.",
    );
  });

  it('names the address it asked and the shape --url takes when nothing is there', () => {
    const missing = new InfraDeliveryApiError(404, {
      code: 'InfraDelivery:Http:NOT_FOUND',
      message: 'The service answered 404 Not Found',
    });

    expect(explainFailure(missing, URL)).toBe(
      `The service answered 404 Not Found at ${URL}/runner/claims. --url must be the plugin's base URL, e.g. http://localhost:7007/api/infra-delivery.`,
    );
  });

  it('keeps the message of anything else as it is', () => {
    const forbidden = new InfraDeliveryApiError(403, {
      code: 'InfraDelivery:Runner:FORBIDDEN',
      message: 'Runners authenticate with a service account’s API key',
    });

    expect(explainFailure(forbidden, URL)).toBe(
      'Runners authenticate with a service account’s API key',
    );
    expect(explainFailure(new Error('spawn tofu ENOENT'), URL)).toBe(
      'spawn tofu ENOENT',
    );
  });
});
