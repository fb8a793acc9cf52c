import {
  JsonNestingScanner,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
} from './jsonDepth';

const nested = (depth: number): unknown =>
  JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('nestsDeeperThan', () => {
  it('measures objects and arrays alike, without recursing', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(
      true,
    );
    expect(nestsDeeperThan(JSON.parse('[[[[1]]]]'), 3)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('[[[[1]]]]'), 4)).toBe(false);
    expect(nestsDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('lets scalars and flat bodies through', () => {
    expect(nestsDeeperThan(undefined, 1)).toBe(false);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1, b: [1, 2], c: { d: 'x' } }, 2)).toBe(false);
  });
});

describe('JsonNestingScanner', () => {
  /** The deepest nesting of `text` written in slices of `size` bytes. */
  const deepest = (text: string, size: number) => {
    const scanner = new JsonNestingScanner();
    const bytes = Buffer.from(text);
    for (let offset = 0; offset < bytes.length; offset += size) {
      scanner.write(bytes.subarray(offset, offset + size));
    }
    return scanner.deepest;
  };

  it('agrees with nestsDeeperThan on what it parses, whatever the slices', () => {
    const text = `{"a":[1,{"b":[[2]]}],"c":{"d":3}}`;
    for (const size of [1, 2, 5, 64]) {
      expect(deepest(text, size)).toBe(5);
    }
    expect(nestsDeeperThan(JSON.parse(text), 4)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(text), 5)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes and multi-byte characters included', () => {
    const text = JSON.stringify({
      a: '[[[{{{',
      b: 'quote \\" [[[ \\\\',
      c: '🪣 {[ ü',
    });
    for (const size of [1, 3, 7]) {
      expect(deepest(text, size)).toBe(1);
    }
  });
});
