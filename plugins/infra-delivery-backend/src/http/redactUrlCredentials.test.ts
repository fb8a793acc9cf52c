import { redactedUrl } from './redactUrlCredentials';

describe('redactedUrl', () => {
  it('replaces the values of credential parameters and keeps the rest', () => {
    expect(
      redactedUrl(
        '/api/infra-delivery/gitforge/self-hosted/oauth/callback?code=code-123&state=eyJ.a.b',
      ),
    ).toBe(
      '/api/infra-delivery/gitforge/self-hosted/oauth/callback?code=redacted&state=redacted',
    );
    expect(
      redactedUrl(
        '/api/infra-delivery/cloud-accounts/a1/onboarding-template?version=3&expires=99&signature=c2ln',
      ),
    ).toBe(
      '/api/infra-delivery/cloud-accounts/a1/onboarding-template?version=3&expires=99&signature=redacted',
    );
  });

  it('finds a credential parameter written without a value or with escapes', () => {
    expect(redactedUrl('/callback?limit=2&code')).toBe(
      '/callback?limit=2&code=redacted',
    );
    expect(redactedUrl('/callback?%63ode=code-123&x=1')).toBe(
      '/callback?code=redacted&x=1',
    );
    // A value with escapes, and names that only begin like a credential's, are not one.
    expect(redactedUrl('/stacks?stackId=a%2Fb&codes=1&states=2')).toBe(
      '/stacks?stackId=a%2Fb&codes=1&states=2',
    );
  });

  it('leaves URLs without credentials alone', () => {
    expect(redactedUrl('/api/infra-delivery/stacks?limit=20&cursor=abc')).toBe(
      '/api/infra-delivery/stacks?limit=20&cursor=abc',
    );
    expect(redactedUrl('/api/infra-delivery/stacks')).toBe(
      '/api/infra-delivery/stacks',
    );
  });
});
