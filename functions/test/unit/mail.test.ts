/** Mail never goes out in clear: the SMTP transport against a real SMTP server in this process. */
import { networkInterfaces } from 'node:os';
import { MailDeliveryError, SmtpMailer, isLoopbackHost } from '../../src/adapters/mail';
import { MailCatcher } from '../harness/mail-catcher';

const mail = { to: 'ada@example.com', subject: 'Your code', text: 'Your code is 1234', html: '<p>1234</p>' };
const settingsFor = (host: string, port: number) => ({
  host,
  port,
  secure: false,
  user: '',
  password: '',
  from: 'Kiosk Rewards <no-reply@kiosk-rewards.example>',
});

/** An address of this machine that is not loopback, as a real mail server's would be. */
function networkAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((found) => found !== undefined && !found.internal && found.family === 'IPv4');
  if (!address) throw new Error('this test needs a non-loopback IPv4 interface to stand for a remote mail server');
  return address.address;
}

describe('SMTP without implicit TLS', () => {
  test('a server that does not offer STARTTLS: the send fails, nothing is delivered in clear', async () => {
    const host = networkAddress();
    // MailCatcher offers no STARTTLS.
    const server = new MailCatcher({ host });
    const port = await server.start();
    try {
      const failure = await new SmtpMailer(settingsFor(host, port)).send(mail).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect((failure as MailDeliveryError).reason).toBe('starttls-failed');
      expect(server.received).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });

  test('the local mail catcher on loopback takes mail without STARTTLS', async () => {
    const server = new MailCatcher();
    const port = await server.start();
    try {
      await new SmtpMailer(settingsFor('127.0.0.1', port)).send(mail);
      expect(server.received.map((received) => received.subject)).toEqual(['Your code']);
    } finally {
      await server.stop();
    }
  });

  test('loopback is 127.0.0.0/8, ::1 and localhost; nothing else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['smtp.example.com', '10.0.0.1', '0.0.0.0', '127.0.0.1.example.com', 'localhost.example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
