import { PasswordHasher } from './passwords';

describe('PasswordHasher', () => {
  const cheap = new PasswordHasher(10);

  it('verifies the password it hashed and no other', async () => {
    const stored = await cheap.hash('correct horse');
    expect(await cheap.verify('correct horse', stored)).toBe(true);
    expect(await cheap.verify('correct hors', stored)).toBe(false);
  });

  it('records its parameters in the hash and salts every hash', async () => {
    const [first, second] = [
      await cheap.hash('same'),
      await cheap.hash('same'),
    ];
    expect(first).toMatch(
      /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/,
    );
    expect(first).not.toBe(second);
  });

  it('hashes at N = 32,768 by default', async () => {
    expect(await new PasswordHasher().hash('x')).toMatch(/^scrypt\$32768\$/);
  });

  it('verifies a password hashed at another cost, so changing the cost locks no one out', async () => {
    const stored = await new PasswordHasher(11).hash('kept');
    expect(await new PasswordHasher(12).verify('kept', stored)).toBe(true);
  });

  it('refuses a stored value that is not an scrypt hash', async () => {
    expect(await cheap.verify('x', 'bcrypt$2b$10$abc')).toBe(false);
    expect(await cheap.verify('x', '')).toBe(false);
  });

  it('refuses a cost outside 10 to 17', () => {
    for (const cost of [9, 18, 12.5, Number.NaN]) {
      expect(() => new PasswordHasher(cost)).toThrow(
        /infraDelivery\.passwords\.scryptCost must be an integer from 10 to 17/,
      );
    }
  });

  it('keeps one decoy hash, at its own cost', async () => {
    const decoy = await cheap.decoyHash();
    expect(decoy).toMatch(/^scrypt\$1024\$/);
    expect(await cheap.decoyHash()).toBe(decoy);
  });
});
