/** Contract §13: where a webhook may send, by the ranges of ipaddr.js (domain/webhookAddress.ts). */
import { checkedLookup } from '../../src/adapters/webhookHttp';
import { isPublicAddress, webhookTarget } from '../../src/domain/webhookAddress';
import { webhookSignature } from '../../src/domain/webhookEvents';
import { Webhook } from 'standardwebhooks';

describe('isPublicAddress', () => {
  test.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '0.0.0.0',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'ff02::1',
    // IPv4-compatible (::/96, deprecated): refused whatever it carries.
    '::7f00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::808:808',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    // NAT64 and 6to4 embed an IPv4 address: refused whatever it carries.
    '64:ff9b::a00:1',
    '64:ff9b::808:808',
    '64:ff9b:1::a00:1',
    '2002:a00:1::1',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not an address',
  ])('%s is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('webhookTarget', () => {
  test.each([
    ['http://hooks.example.com/', false, 'must be https'],
    ['https://10.1.2.3/', false, 'private or reserved'],
    ['https://[::1]:8443/', false, 'private or reserved'],
    ['https://metadata.google.internal/', false, 'public host'],
    ['https://metadata/', false, 'public host'],
    ['https://localhost/', false, 'public host'],
    ['https://app.localhost/', false, 'public host'],
    ['https://user:pw@hooks.example.com/', false, 'user name'],
    ['http://127.0.0.1:8080/', false, 'must be https'],
    ['http://10.0.0.1/', true, 'must be https'],
    ['https://127.0.0.1/', true, 'private or reserved'],
    ['https://[::127.0.0.1]/', false, 'private or reserved'],
    ['https://[::ffff:127.0.0.1]/', false, 'private or reserved'],
    ['https://[64:ff9b::10.0.0.1]/', false, 'private or reserved'],
    ['https://hooks.example.com:8080/', false, 'port 443 or 8443'],
    ['https://hooks.example.com:22/', false, 'port 443 or 8443'],
    ['https://93.184.216.34:6379/', false, 'port 443 or 8443'],
    ['not a url', false, 'absolute URL'],
  ])('%s (emulator: %s) is refused: %s', (url, emulator, reason) => {
    expect(webhookTarget(url, emulator)).toEqual(expect.stringContaining(reason));
  });

  test.each([
    ['https://hooks.example.com/in', false, false],
    ['https://93.184.216.34/in', false, false],
    ['https://hooks.example.com:443/in', false, false],
    ['https://hooks.example.com:8443/in', false, false],
    ['https://hooks.example.com:9000/in', true, false],
    ['http://127.0.0.1:8080/in', true, true],
    ['http://localhost:8080/in', true, true],
  ])('%s (emulator: %s) is allowed (local: %s)', (url, emulator, local) => {
    expect(webhookTarget(url, emulator)).toMatchObject({ local });
  });
});

describe('checkedLookup: the address connected to is the one checked', () => {
  const lookup = (addresses: string[], local = false) =>
    new Promise<{ error: Error | null; address: string }>((resolve) => {
      const resolver = async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      checkedLookup(resolver, local)('hooks.example.com', {}, (error, address) =>
        resolve({ error, address: String(address) }),
      );
    });

  test('a name with any private address is refused', async () => {
    expect((await lookup(['93.184.216.34', '10.0.0.1'])).error?.message).toContain('private or reserved');
  });
  test('a name resolving to an IPv4-compatible or NAT64 form of a private address is refused', async () => {
    expect((await lookup(['::7f00:1'])).error?.message).toContain('private or reserved');
    expect((await lookup(['64:ff9b::a00:1'])).error?.message).toContain('private or reserved');
  });
  test('a public name connects to the address resolved', async () => {
    expect(await lookup(['93.184.216.34'])).toEqual({ error: null, address: '93.184.216.34' });
  });
});

test('the signature is the one standardwebhooks verifies, under each secret given', () => {
  const secrets = [
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ZbvBZ6b6Ik=',
    'whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQtdGVzdA==',
  ];
  const timestamp = Math.floor(Date.now() / 1000);
  const body = '{"type":"alert.opened"}';
  const headers = {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secrets, 'evt_1', timestamp, body),
  };
  for (const secret of secrets) expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'alert.opened' });
});
