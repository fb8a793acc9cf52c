import { newId } from './ids';

describe('newId', () => {
  it('is a version 7 UUID', () => {
    expect(newId()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId(1_800_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts across milliseconds', () => {
    const earlier = newId(Date.now());
    const later = newId(Date.now() + 5);
    expect(later > earlier).toBe(true);
  });
});
