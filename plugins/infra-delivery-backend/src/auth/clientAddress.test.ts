import { Request } from 'express';
import { clientAddressBucket } from './clientAddress';

const from = (ip: string) => ({ ip, socket: {} } as unknown as Request);

describe('clientAddressBucket', () => {
  it('counts an IPv4 client by its address, also when mapped into IPv6', () => {
    expect(clientAddressBucket(from('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddressBucket(from('::ffff:203.0.113.7'))).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64', () => {
    const a = clientAddressBucket(from('2001:db8:1:2:aaaa::1'));
    const b = clientAddressBucket(from('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(a).toBe('2001:db8:1:2::/64');
    expect(b).toBe(a);
    expect(clientAddressBucket(from('2001:db8:1:3::1'))).not.toBe(a);
    expect(clientAddressBucket(from('::1'))).toBe('0:0:0:0::/64');
  });
});
