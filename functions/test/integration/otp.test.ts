import { Timestamp } from 'firebase-admin/firestore';
import { bucketDocumentId } from '../../src/data/rateLimits';
import { GLOBAL_OTP_SHARDS, globalOtpBucket } from '../../src/services/otpEmail';
import { db, resetEmulators } from './helpers';
import { call } from './requests';
import { uniqueId } from './seeds';
import { TestMailServer, functionsParams } from './smtp';

const mail = new TestMailServer();

beforeAll(() => mail.start());
afterAll(() => mail.stop());
beforeEach(async () => {
  await resetEmulators();
  mail.received.length = 0;
  mail.refuse = false;
});

/** Each test is its own client as the front end reports it, so per-IP limits do not leak between tests. */
const asClient = () => ({
  'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250) + 1}, 10.0.0.${Math.floor(Math.random() * 250)}`,
});

const sendOtp = (body: unknown, headers: Record<string, string>) => call('POST', '/send-otp-email', { body, headers });

/** Mails `otp` to each address in turn from one client; each mail must be accepted. */
async function sendFromOneClient(emails: string[], otp: string) {
  const client = asClient();
  for (const email of emails) {
    expect((await sendOtp({ email, otp }, client)).status).toBe(200);
  }
}

describe('POST /send-otp-email', () => {
  test('mails the code to the address', async () => {
    const res = await sendOtp({ email: 'ada@example.com', otp: '482913' }, asClient());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'OTP sent to ada@example.com' });
    expect(mail.received).toHaveLength(1);
    const [received] = mail.received;
    expect(received.to).toMatchObject({ text: 'ada@example.com' });
    expect(received.from?.text).toContain('no-reply@kiosk-rewards.example');
    expect(received.subject).toBe('Your Kiosk Rewards verification code');
    expect(received.text).toContain('482913');
    expect(received.text).toContain('valid for 10 minutes');
    expect(received.html).toContain('482913');
  });

  test.each([
    [{ email: 'not-an-email', otp: '1234' }, 'email must be a valid email'],
    [{ email: 'a@example.com', otp: '12a4' }, 'otp must be 4-10 digits'],
    [{ email: 'a@example.com', otp: '123' }, 'otp must be 4-10 digits'],
    [{ email: 'a@example.com', otp: '12345678901' }, 'otp must be 4-10 digits'],
    [{ email: 'a@example.com' }, 'otp is required'],
    [{ otp: '1234' }, 'email is required'],
  ])('%p: 400, no mail', async (body, message) => {
    const res = await sendOtp(body, asClient());
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(mail.received).toHaveLength(0);
  });

  test('the 4th mail to one address within 10 minutes: 429 with Retry-After, whatever the case of the address', async () => {
    await sendFromOneClient(['Flood@Example.com', 'flood@example.com', 'FLOOD@example.com'], '1111');
    const res = await sendOtp({ email: 'flood@example.com', otp: '1111' }, asClient());
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/^Too many codes requested for this address; try again in \d+ seconds$/);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(mail.received).toHaveLength(3);
  });

  test('the 31st mail from one client IP within an hour: 429', async () => {
    const client = asClient();
    for (let i = 0; i < 30; i++) {
      const res = await sendOtp({ email: `${uniqueId('ip')}@example.com`, otp: '2222' }, client);
      expect(res.status).toBe(200);
    }
    const res = await sendOtp({ email: `${uniqueId('ip')}@example.com`, otp: '2222' }, client);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/for this client/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(mail.received).toHaveLength(30);
  });

  test('every +tag spelling of one address is one mailbox: the 4th mail is 429, each mail went to the address as given', async () => {
    const sent = ['victim+1@example.com', 'Victim+shop@example.com', 'VICTIM+2@example.com'];
    await sendFromOneClient(sent, '5555');
    const res = await sendOtp({ email: 'victim+3@example.com', otp: '5555' }, asClient());
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/for this address/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(mail.received.map((received) => received.to)).toEqual(
      sent.map((email) => expect.objectContaining({ text: email })),
    );
  });

  test('a dotted gmail.com spelling counts against the undotted mailbox; dots elsewhere are another mailbox', async () => {
    await sendFromOneClient(['victim@gmail.com', 'v.ictim@gmail.com', 'vic.tim@googlemail.com'], '6666');
    const res = await sendOtp({ email: 'V.I.C.T.I.M@gmail.com', otp: '6666' }, asClient());
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/for this address/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(500);
    expect((await sendOtp({ email: 'v.ictim@example.com', otp: '6666' }, asClient())).status).toBe(200);
    expect(mail.received).toHaveLength(4);
  });

  test('the 31st mail from one IPv6 /64 within an hour: 429, whichever addresses of it the client used', async () => {
    const group = () => Math.floor(Math.random() * 0x10000).toString(16);
    const network = `2001:db8:${group()}:${group()}`;
    // The front end appends the address it saw; the client's own claim before it changes nothing.
    const from = (address: string) => ({ 'x-forwarded-for': `198.51.100.1, ${address}` });
    for (let i = 0; i < 30; i++) {
      const address = `${network}:${group()}:${group()}:${group()}:${(i + 1).toString(16)}`;
      const res = await sendOtp({ email: `${uniqueId('v6')}@example.com`, otp: '7777' }, from(address));
      expect(res.status).toBe(200);
    }
    const res = await sendOtp({ email: `${uniqueId('v6')}@example.com`, otp: '7777' }, from(`${network}::31`));
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/for this client/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    const [a, b, c, d] = network.split(':');
    const neighbour = `${a}:${b}:${c}:${(parseInt(d, 16) ^ 1).toString(16)}::1`;
    expect((await sendOtp({ email: `${uniqueId('v6')}@example.com`, otp: '7777' }, from(neighbour))).status).toBe(200);
    expect(mail.received).toHaveLength(31);
  });

  test('the global ceiling: one /64 after another of a /48 is refused once the service has sent its hourly share', async () => {
    // The hour's mails so far, as the service counts them: each shard of the ceiling one short of full.
    const ceiling = { limit: Number(functionsParams().OTP_GLOBAL_LIMIT_PER_HOUR), windowMs: 3_600_000 };
    const now = Date.now();
    for (let shard = 0; shard < GLOBAL_OTP_SHARDS; shard++) {
      const bucket = globalOtpBucket(ceiling, shard);
      expect(bucket.limit).toBeGreaterThan(1);
      await db()
        .collection('rateLimits')
        .doc(bucketDocumentId(bucket))
        .set({
          scope: bucket.scope,
          hits: Array.from({ length: bucket.limit - 1 }, (_, n) => ({ id: `earlier-${n}`, at: now - n * 1000 })),
          expireAt: Timestamp.fromMillis(now + ceiling.windowMs),
        });
    }
    const group = () => Math.floor(Math.random() * 0x10000).toString(16);
    const network48 = `2001:db8:${group()}`;
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof sendOtp>> | undefined;
    // Every shard takes one more: at most GLOBAL_OTP_SHARDS mails, then the one drawn is full.
    for (let subnet = 1; subnet <= GLOBAL_OTP_SHARDS + 1 && !refused; subnet++) {
      const from = { 'x-forwarded-for': `${network48}:${subnet.toString(16)}::1` };
      const res = await sendOtp({ email: `${uniqueId('g')}@example.com`, otp: '8888' }, from);
      if (res.status === 200) accepted++;
      else refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body.error).toMatch(/^Too many codes are being requested right now; try again in \d+ seconds$/);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(accepted).toBeLessThanOrEqual(GLOBAL_OTP_SHARDS);
    expect(mail.received).toHaveLength(accepted);
  });

  test('Fastly-Client-IP counts for nothing, behind a Hosting rewrite or sent straight to the function', async () => {
    const perIpBucket = (ip: string) =>
      db()
        .collection('rateLimits')
        .doc(bucketDocumentId({ scope: 'otp-ip', key: ip }));
    const hostingEdge = '151.101.65.195';
    const viaHosting = { 'x-forwarded-for': `198.51.100.23, ${hostingEdge}`, 'fastly-client-ip': '198.51.100.23' };
    const hosted = await call('POST', '/api/send-otp-email', {
      body: { email: `${uniqueId('h')}@example.com`, otp: '9999' },
      headers: viaHosting,
    });
    expect(hosted.status).toBe(200);
    expect((await perIpBucket(hostingEdge).get()).exists).toBe(true);
    expect((await perIpBucket('198.51.100.23').get()).exists).toBe(false);

    const direct = { 'x-forwarded-for': '203.0.113.50', 'fastly-client-ip': '192.0.2.77' };
    expect((await sendOtp({ email: `${uniqueId('h')}@example.com`, otp: '9999' }, direct)).status).toBe(200);
    expect((await perIpBucket('203.0.113.50').get()).exists).toBe(true);
    expect((await perIpBucket('192.0.2.77').get()).exists).toBe(false);
  });

  test('the server refusing the mail: 502, and the refused send does not count against the quota', async () => {
    mail.refuse = true;
    const client = asClient();
    for (let i = 0; i < 4; i++) {
      const res = await sendOtp({ email: 'refused@example.com', otp: '3333' }, client);
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('The mail server could not send the code; try again later');
    }
    mail.refuse = false;
    expect((await sendOtp({ email: 'refused@example.com', otp: '3333' }, client)).status).toBe(200);
    expect(mail.received).toHaveLength(1);
  });

  test('the mail server down: 502, and the quota untouched', async () => {
    await mail.stop();
    try {
      const client = asClient();
      const res = await sendOtp({ email: 'down@example.com', otp: '4444' }, client);
      expect(res.status).toBe(502);
      const buckets = await db().collection('rateLimits').get();
      expect(buckets.docs.every((bucket) => bucket.get('hits').length === 0)).toBe(true);
    } finally {
      await mail.start();
    }
  });
});
