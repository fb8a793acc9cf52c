import { givenIdFromName, givenIdSchema } from './primitives';

describe('givenIdFromName', () => {
  it('makes a valid givenId of a name', () => {
    for (const [name, expected] of [
      ['Payments API', 'payments-api'],
      ['  Data Lake (EU) ', 'data-lake-eu'],
      ['Ünïcode — only', 'n-code-only'],
      ['x'.repeat(80), 'x'.repeat(50)],
    ]) {
      const givenId = givenIdFromName(name, 'stack');
      expect(givenId).toBe(expected);
      expect(givenIdSchema.safeParse(givenId).success).toBe(true);
    }
  });

  it('gives the fallback for a name without a letter or digit', () => {
    expect(givenIdFromName('— ✓ —', 'stack')).toBe('stack');
    expect(givenIdFromName('', '')).toBe('');
  });
});
