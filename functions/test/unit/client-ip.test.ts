import { clientIpOf } from '../../src/http/api';

type ClientIpRequest = Parameters<typeof clientIpOf>[0];

const request = (forwardedFor: string | string[] | undefined, remoteAddress?: string): ClientIpRequest =>
  ({
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
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
