import { randomBytes } from 'node:crypto';
import { InfraDeliveryError } from '../errors';
import { quickCreateUrl, TemplateUrlSigner } from './templateUrls';

const now = new Date('2026-06-01T00:00:00Z');
const expires = now.getTime() / 1000 + 3600;
const claims = { cloudAccountId: 'acct-1', version: '2', expires };

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InfraDeliveryError);
    return (error as InfraDeliveryError).code;
  }
  throw new Error('expected a refusal');
}

describe('TemplateUrlSigner', () => {
  const signer = new TemplateUrlSigner(randomBytes(32));
  const signature = signer.sign(claims);

  it('accepts its own signature until the expiry', () => {
    expect(() => signer.verify(claims, signature, now)).not.toThrow();
    expect(
      refusal(() => signer.verify(claims, signature, new Date(expires * 1000))),
    ).toBe('InfraDelivery:CloudAccountTemplate:URL_EXPIRED');
  });

  it.each([
    ['account', { ...claims, cloudAccountId: 'acct-2' }],
    ['version', { ...claims, version: '1' }],
    ['expiry', { ...claims, expires: expires + 3600 }],
  ])('refuses a URL whose %s was changed', (_part, changed) => {
    expect(refusal(() => signer.verify(changed, signature, now))).toBe(
      'InfraDelivery:CloudAccountTemplate:INVALID_SIGNATURE',
    );
  });

  it('refuses another key’s signature and a truncated one', () => {
    const other = new TemplateUrlSigner(randomBytes(32)).sign(claims);
    expect(refusal(() => signer.verify(claims, other, now))).toBe(
      'InfraDelivery:CloudAccountTemplate:INVALID_SIGNATURE',
    );
    expect(
      refusal(() => signer.verify(claims, signature.slice(0, -1), now)),
    ).toBe('InfraDelivery:CloudAccountTemplate:INVALID_SIGNATURE');
  });
});

describe('quickCreateUrl', () => {
  it('links the console quick-create page with the template and stack name', () => {
    const templateUrl =
      'https://acme-onboarding.s3.eu-west-1.amazonaws.com/t/a/onboarding-v2.yaml?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=86400&X-Amz-Signature=ab%2Fcd';
    const url = quickCreateUrl({
      region: 'eu-west-1',
      templateUrl,
      stackName: 'infra-delivery-prod',
    });
    expect(url).toMatch(
      /^https:\/\/console\.aws\.amazon\.com\/cloudformation\/home\?region=eu-west-1#\/stacks\/quickcreate\?/,
    );
    const fragment = new URL(url).hash.split('?')[1];
    const params = new URLSearchParams(fragment);
    expect(params.get('templateURL')).toBe(templateUrl);
    expect(params.get('stackName')).toBe('infra-delivery-prod');
  });
});
