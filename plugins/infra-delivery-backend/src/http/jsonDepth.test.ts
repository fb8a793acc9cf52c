import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth';

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
