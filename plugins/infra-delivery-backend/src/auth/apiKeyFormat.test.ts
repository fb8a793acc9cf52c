import {
  apiKeyMatches,
  generateApiKey,
  hashApiKey,
  parseApiKey,
} from './apiKeyFormat';

describe('API key format', () => {
  it('generates recognisable keys with a verifiable checksum', () => {
    const generated = generateApiKey();
    expect(generated.key).toMatch(/^idk_[0-9A-Za-z]{50}$/);
    expect(parseApiKey(generated.key)).toEqual({
      lookupId: generated.lookupId,
    });
    expect(generated.keySuffix).toBe(generated.key.slice(-4));
    expect(generated.secretHash).toBe(hashApiKey(generated.key));
    expect(generated.secretHash).not.toContain(generated.key);
  });

  it('rejects a key with one character changed, without a lookup', () => {
    const { key } = generateApiKey();
    const position = 20;
    const changed =
      key.slice(0, position) +
      (key[position] === 'a' ? 'b' : 'a') +
      key.slice(position + 1);
    expect(parseApiKey(changed)).toBeUndefined();
  });

  it('rejects other shapes', () => {
    expect(parseApiKey('idk_short')).toBeUndefined();
    expect(parseApiKey(`xyz_${'a'.repeat(50)}`)).toBeUndefined();
    expect(parseApiKey(`idk_${'-'.repeat(50)}`)).toBeUndefined();
  });

  it('matches only the key it was hashed from', () => {
    const first = generateApiKey();
    const second = generateApiKey();
    expect(apiKeyMatches(first.key, first.secretHash)).toBe(true);
    expect(apiKeyMatches(second.key, first.secretHash)).toBe(false);
  });

  it('never repeats a key', () => {
    const keys = new Set(
      Array.from({ length: 2000 }, () => generateApiKey().key),
    );
    expect(keys.size).toBe(2000);
  });
});
