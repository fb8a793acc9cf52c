import { InfraDeliveryError } from '../../errors';
import { normalizeServerBaseUrl } from './GitHubEnterpriseServer';

describe('normalizeServerBaseUrl', () => {
  const production = { allowLoopbackHttp: false };
  const development = { allowLoopbackHttp: true };

  it.each([
    ['https://github.example.com', 'https://github.example.com'],
    ['https://github.example.com/', 'https://github.example.com'],
    [
      'https://GitHub.Example.com:8443/ghe//',
      'https://github.example.com:8443/ghe',
    ],
  ])('keeps %s as %s', (raw, normalized) => {
    expect(normalizeServerBaseUrl(raw, production)).toBe(normalized);
  });

  it.each([
    'http://127.0.0.1:8080',
    'http://localhost:8080/',
    'http://[::1]:8080',
  ])('accepts the loopback address %s over http outside production', raw => {
    expect(normalizeServerBaseUrl(raw, development)).toBe(
      raw.replace(/\/$/, ''),
    );
    expect(() => normalizeServerBaseUrl(raw, production)).toThrow(
      'must use https',
    );
  });

  it.each([
    ['http://github.example.com', 'must use https'],
    ['http://10.0.0.8', 'must use https'],
    ['ftp://github.example.com', 'must use https'],
    ['https://user:pw@github.example.com', 'credentials'],
    ['https://github.example.com/?next=/evil', 'query'],
    ['https://github.example.com/#x', 'fragment'],
    ['not a url', 'not a URL'],
  ])('refuses %s', (raw, message) => {
    let error: unknown;
    try {
      normalizeServerBaseUrl(raw, development);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InfraDeliveryError);
    expect((error as InfraDeliveryError).status).toBe(400);
    expect((error as InfraDeliveryError).code).toBe(
      'InfraDelivery:GitSelfHostedServer:INVALID_BASE_URL',
    );
    expect((error as Error).message).toContain(message);
  });
});
