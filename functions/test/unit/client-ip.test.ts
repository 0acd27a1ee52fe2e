import { clientIpOf } from '../../src/http/clientIp';

type ClientIpRequest = Parameters<typeof clientIpOf>[0];

const request = (
  forwardedFor: string | string[] | undefined,
  remoteAddress?: string,
  extraHeaders: Record<string, string | string[]> = {},
): ClientIpRequest =>
  ({
    headers: { ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }), ...extraHeaders },
    socket: { remoteAddress },
  }) as unknown as ClientIpRequest;

describe('clientIpOf', () => {
  test('a single X-Forwarded-For entry', () => {
    expect(clientIpOf(request('203.0.113.7', '10.0.0.1'))).toBe('203.0.113.7');
  });

  test('the rightmost entry wins: earlier ones are the client claims', () => {
    expect(clientIpOf(request('1.1.1.1, 198.51.100.2, 203.0.113.7', '10.0.0.1'))).toBe('203.0.113.7');
  });

  test('entries are trimmed', () => {
    expect(clientIpOf(request('  1.1.1.1 ,   203.0.113.7   ', '10.0.0.1'))).toBe('203.0.113.7');
    expect(clientIpOf(request('1.1.1.1,2001:db8::1'))).toBe('2001:db8::1');
  });

  test('empty entries are skipped', () => {
    expect(clientIpOf(request('203.0.113.7, ,', '10.0.0.1'))).toBe('203.0.113.7');
  });

  test('a header given several times counts as one list', () => {
    expect(clientIpOf(request(['1.1.1.1', '198.51.100.2, 203.0.113.7'], '10.0.0.1'))).toBe('203.0.113.7');
  });

  test('no header: the socket address', () => {
    expect(clientIpOf(request(undefined, '10.0.0.1'))).toBe('10.0.0.1');
  });

  test('a blank header: the socket address', () => {
    expect(clientIpOf(request('', '10.0.0.1'))).toBe('10.0.0.1');
    expect(clientIpOf(request(' , ', '10.0.0.1'))).toBe('10.0.0.1');
  });

  test('nothing known: "unknown"', () => {
    expect(clientIpOf(request(undefined))).toBe('unknown');
    expect(clientIpOf({ headers: {} } as unknown as ClientIpRequest)).toBe('unknown');
  });
});

describe('behind a Firebase Hosting rewrite (Fastly)', () => {
  // Nothing marks a request as Hosting's that another Fastly service could not copy
  // (docs/operations.md): Fastly-Client-IP is never believed, the hop Google saw counts.
  const viaFastly = (fastlyClientIp: string, lastHop = '151.101.65.195') =>
    request(`203.0.113.99, ${lastHop}`, '169.254.1.1', { 'fastly-client-ip': fastlyClientIp });

  test('a Fastly hop with a Fastly-Client-IP: the Fastly hop counts', () => {
    expect(clientIpOf(viaFastly('198.51.100.23'))).toBe('151.101.65.195');
    expect(clientIpOf(viaFastly('2001:db8:1:2::7', '2a04:4e42:600::323'))).toBe('2a04:4e42:600::323');
  });

  test('straight to the function URL: a Fastly-Client-IP the client sent itself changes nothing', () => {
    const spoofed = request('198.51.100.1, 203.0.113.7', '10.0.0.1', { 'fastly-client-ip': '192.0.2.1' });
    expect(clientIpOf(spoofed)).toBe('203.0.113.7');
  });
});
