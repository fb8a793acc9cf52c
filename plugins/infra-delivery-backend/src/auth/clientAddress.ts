import { isIPv6 } from 'node:net';
import { Request } from 'express';

/**
 * The client address that per-address limits count by. It is Express's `req.ip`, which is the
 * proxy's address behind an ingress unless `backend.trustProxy` is set (then every client of
 * the ingress would share one budget). An IPv6 client is counted by its /64, the smallest
 * network a client usually gets: one host has 2^64 addresses to rotate through. An IPv4
 * address mapped into IPv6 is the IPv4 address.
 */
export function clientAddressBucket(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    return mapped[1];
  }
  if (!isIPv6(address)) {
    return address;
  }
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded. */
function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail !== undefined && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [
    ...headGroups,
    ...Array.from({ length: Math.max(0, missing) }, () => '0'),
    ...tailGroups,
  ].map(group => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
