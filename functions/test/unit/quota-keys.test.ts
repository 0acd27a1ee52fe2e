import { clientNetworkKey, mailboxKey } from '../../src/domain/quotaKeys';
import { validateBody } from '../../src/http/validation';

/** Only addresses the endpoint accepts reach mailboxKey; each case below is one of them. */
const accepted = (email: string) => validateBody<{ email: string }>('otpEmailBody', { email, otp: '1234' }).email;

describe('mailboxKey', () => {
  test.each([
    ['ada@example.com', 'ada@example.com'],
    ['Ada@Example.COM', 'ada@example.com'],
    ['ADA@EXAMPLE.COM', 'ada@example.com'],
  ])('case is ignored: %s -> %s', (email, key) => {
    expect(mailboxKey(accepted(email))).toBe(key);
  });

  test.each([
    ['victim+1@example.com', 'victim@example.com'],
    ['Victim+News@Example.org', 'victim@example.org'],
    ['victim+a+b@example.com', 'victim@example.com'],
    ['victim++@example.com', 'victim@example.com'],
    ['victim+@example.com', 'victim@example.com'],
    ['victim+tag.with.dots@example.com', 'victim@example.com'],
  ])('a +tag is dropped at every domain: %s -> %s', (email, key) => {
    expect(mailboxKey(accepted(email))).toBe(key);
  });

  test.each([
    ['+news@example.com', '+news@example.com'],
    ['+@example.com', '+@example.com'],
    ['+news+1@example.com', '+news@example.com'],
    ['+.x@example.com', '+.x@example.com'],
  ])('a local part starting with "+" keeps that name, only a later tag is dropped: %s -> %s', (email, key) => {
    expect(mailboxKey(accepted(email))).toBe(key);
  });

  test.each([
    ['v.ictim@gmail.com', 'victim@gmail.com'],
    ['V.I.C.T.I.M@GMAIL.COM', 'victim@gmail.com'],
    ['victim@googlemail.com', 'victim@gmail.com'],
    ['vic.tim+spam@GoogleMail.com', 'victim@gmail.com'],
    ['v.+x@gmail.com', 'v@gmail.com'],
  ])('at Gmail dots are ignored and googlemail.com is gmail.com: %s -> %s', (email, key) => {
    expect(mailboxKey(accepted(email))).toBe(key);
  });

  test.each([
    ['v.ictim@example.com', 'v.ictim@example.com'],
    ['v.ictim@mail.gmail.com', 'v.ictim@mail.gmail.com'],
    ['v.ictim@gmail.com.example', 'v.ictim@gmail.com.example'],
  ])('elsewhere dots are part of the name: %s -> %s', (email, key) => {
    expect(mailboxKey(accepted(email))).toBe(key);
  });

  test("the other characters the validator takes are part of the name: !#$%&'*/=?^_`{|}~-", () => {
    const email = "a!#$%&'*/=?^_`{|}~-z@Example.com";
    expect(mailboxKey(accepted(email))).toBe("a!#$%&'*/=?^_`{|}~-z@example.com");
  });

  test('quoted local parts never get here: the validator refuses them', () => {
    for (const email of ['"a+b"@example.com', '"a@b"@example.com', '"v.ictim"@gmail.com']) {
      expect(() => accepted(email)).toThrow('email must be a valid email');
    }
  });

  test('a string without a mailbox name is only lowercased', () => {
    expect(mailboxKey('Not-An-Address')).toBe('not-an-address');
    expect(mailboxKey('@Example.com')).toBe('@example.com');
  });
});

describe('clientNetworkKey', () => {
  test('IPv4: the address itself', () => {
    expect(clientNetworkKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('10.0.0.1')).toBe('10.0.0.1');
  });

  test('IPv6: its /64, however the address is written', () => {
    const key = '2001:db8:85a3:8d3::/64';
    for (const ip of [
      '2001:db8:85a3:8d3:1319:8a2e:370:7348',
      '2001:0DB8:85A3:08D3:1319:8A2E:0370:7348',
      '2001:db8:85a3:8d3::1',
      '2001:db8:85a3:8d3::',
      '2001:db8:85a3:8d3:ffff:ffff:ffff:ffff',
      '2001:db8:85a3:8d3::203.0.113.7',
    ]) {
      expect(clientNetworkKey(ip)).toBe(key);
    }
  });

  test('IPv6: a neighbouring /64 is another network', () => {
    expect(clientNetworkKey('2001:db8:85a3:8d4::1')).toBe('2001:db8:85a3:8d4::/64');
  });

  test('IPv6: "::" expands wherever it stands', () => {
    expect(clientNetworkKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetworkKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientNetworkKey('::1')).toBe('0:0:0:0::/64');
    expect(clientNetworkKey('::')).toBe('0:0:0:0::/64');
    expect(clientNetworkKey('2001:db8:1:2:3::')).toBe('2001:db8:1:2::/64');
    expect(clientNetworkKey('::2001:db8:1:2:3:4:5')).toBe('0:2001:db8:1::/64');
  });

  test('IPv4-mapped IPv6: the IPv4 address, in either notation and case', () => {
    expect(clientNetworkKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetworkKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(clientNetworkKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  test('a zone id is ignored', () => {
    expect(clientNetworkKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetworkKey('fe80::2%25en0')).toBe('fe80:0:0:0::/64');
    expect(clientNetworkKey('::ffff:10.0.0.1%1')).toBe('10.0.0.1');
  });

  test('anything that is not an IP address is kept as given', () => {
    expect(clientNetworkKey('unknown')).toBe('unknown');
    expect(clientNetworkKey('[2001:db8::1]:443')).toBe('[2001:db8::1]:443');
    expect(clientNetworkKey('203.0.113.7:443')).toBe('203.0.113.7:443');
  });
});
