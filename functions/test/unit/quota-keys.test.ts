import { clientNetworkKey, mailboxKey } from '../../src/domain/quotaKeys';
import { validateBody } from '../../src/http/validation';

/** Only addresses the endpoint accepts reach mailboxKey; each case below is one of them. */
const accepted = (email: string) => validateBody<{ email: string }>('otpEmailBody', { email, otp: '1234' }).email;

/** One rule of a key function: a test per case, each input getting the key beside it. */
const keyRule = (key: (input: string) => string) => (name: string, cases: [input: string, expected: string][]) =>
  test.each(cases)(`${name}: %s -> %s`, (input, expected) => {
    expect(key(input)).toBe(expected);
  });

describe('mailboxKey', () => {
  const rule = keyRule((email) => mailboxKey(accepted(email)));

  rule('case is ignored', [
    ['ada@example.com', 'ada@example.com'],
    ['Ada@Example.COM', 'ada@example.com'],
    ['ADA@EXAMPLE.COM', 'ada@example.com'],
  ]);

  rule('a +tag is dropped at every domain', [
    ['victim+1@example.com', 'victim@example.com'],
    ['Victim+News@Example.org', 'victim@example.org'],
    ['victim+a+b@example.com', 'victim@example.com'],
    ['victim++@example.com', 'victim@example.com'],
    ['victim+@example.com', 'victim@example.com'],
    ['victim+tag.with.dots@example.com', 'victim@example.com'],
  ]);

  rule('a local part starting with "+" keeps that name, only a later tag is dropped', [
    ['+news@example.com', '+news@example.com'],
    ['+@example.com', '+@example.com'],
    ['+news+1@example.com', '+news@example.com'],
    ['+.x@example.com', '+.x@example.com'],
  ]);

  rule('at Gmail dots are ignored and googlemail.com is gmail.com', [
    ['v.ictim@gmail.com', 'victim@gmail.com'],
    ['V.I.C.T.I.M@GMAIL.COM', 'victim@gmail.com'],
    ['victim@googlemail.com', 'victim@gmail.com'],
    ['vic.tim+spam@GoogleMail.com', 'victim@gmail.com'],
    ['v.+x@gmail.com', 'v@gmail.com'],
  ]);

  rule('elsewhere dots are part of the name', [
    ['v.ictim@example.com', 'v.ictim@example.com'],
    ['v.ictim@mail.gmail.com', 'v.ictim@mail.gmail.com'],
    ['v.ictim@gmail.com.example', 'v.ictim@gmail.com.example'],
  ]);

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
  const rule = keyRule(clientNetworkKey);

  rule('IPv4: the address itself', [
    ['203.0.113.7', '203.0.113.7'],
    ['10.0.0.1', '10.0.0.1'],
  ]);

  const network = '2001:db8:85a3:8d3::/64';
  rule(
    'IPv6: its /64, however the address is written',
    [
      '2001:db8:85a3:8d3:1319:8a2e:370:7348',
      '2001:0DB8:85A3:08D3:1319:8A2E:0370:7348',
      '2001:db8:85a3:8d3::1',
      '2001:db8:85a3:8d3::',
      '2001:db8:85a3:8d3:ffff:ffff:ffff:ffff',
      '2001:db8:85a3:8d3::203.0.113.7',
    ].map((ip): [string, string] => [ip, network]),
  );

  rule('IPv6: a neighbouring /64 is another network', [['2001:db8:85a3:8d4::1', '2001:db8:85a3:8d4::/64']]);

  rule('IPv6: "::" expands wherever it stands', [
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['2001:db8:1:2:3::', '2001:db8:1:2::/64'],
    ['::2001:db8:1:2:3:4:5', '0:2001:db8:1::/64'],
  ]);

  rule('IPv4-mapped IPv6: the IPv4 address, in either notation and case', [
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
  ]);

  rule('a zone id is ignored', [
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['fe80::2%25en0', 'fe80:0:0:0::/64'],
    ['::ffff:10.0.0.1%1', '10.0.0.1'],
  ]);

  rule('anything that is not an IP address is kept as given', [
    ['unknown', 'unknown'],
    ['[2001:db8::1]:443', '[2001:db8::1]:443'],
    ['203.0.113.7:443', '203.0.113.7:443'],
  ]);
});
