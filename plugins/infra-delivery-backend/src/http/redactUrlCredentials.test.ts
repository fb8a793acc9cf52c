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

  it('leaves URLs without credentials alone', () => {
    expect(redactedUrl('/api/infra-delivery/stacks?limit=20&cursor=abc')).toBe(
      '/api/infra-delivery/stacks?limit=20&cursor=abc',
    );
    expect(redactedUrl('/api/infra-delivery/stacks')).toBe(
      '/api/infra-delivery/stacks',
    );
  });
});
