import type { Transporter } from 'nodemailer';
import type { SmtpSettings } from '../config';
import { timedCall } from './callTiming';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves with the server's message id once the SMTP server accepted the mail. */
  send(mail: OutgoingMail): Promise<string>;
}

export class MailDeliveryError extends Error {
  constructor(readonly reason: string) {
    super(`mail delivery failed: ${reason}`);
    this.name = 'MailDeliveryError';
  }
}

const SMTP_TIMEOUT_MS = 10_000;

/**
 * The local mail catcher of the emulators, the bench and the tests: an SMTP host on
 * this machine's loopback interface, where mail never crosses a network. Anything else
 * must take STARTTLS.
 */
export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** Why a send failed, for the log: a refused STARTTLS by name, else the server's reply code or the error's. */
function failureReason(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (code === 'ETLS') return 'starttls-failed';
  return String(responseCode ?? code ?? 'unknown');
}

/** nodemailer over SMTP. nodemailer is loaded on the first mail, not at cold start. */
export class SmtpMailer implements Mailer {
  private transporter: Transporter | undefined;

  constructor(private readonly settings: SmtpSettings) {}

  async send(mail: OutgoingMail): Promise<string> {
    this.transporter ??= await this.createTransporter();
    try {
      const transporter = this.transporter;
      const info = await timedCall(() => transporter.sendMail({ from: this.settings.from, ...mail }));
      return info.messageId;
    } catch (error) {
      throw new MailDeliveryError(failureReason(error));
    }
  }

  private async createTransporter(): Promise<Transporter> {
    const { createTransport } = await import('nodemailer');
    const { host, port, secure, user, password } = this.settings;
    return createTransport({
      host,
      port,
      secure,
      // Mail never goes out in clear: without implicit TLS, a server that does not take
      // STARTTLS fails the send (ETLS) rather than receiving it in plain text.
      requireTLS: !secure && !isLoopbackHost(host),
      auth: user ? { user, pass: password } : undefined,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
  }
}

let mailer: { key: string; instance: Mailer } | undefined;

/** One transporter per instance, rebuilt only if the settings change. */
export function smtpMailer(settings: SmtpSettings): Mailer {
  const key = JSON.stringify(settings);
  if (mailer?.key !== key) mailer = { key, instance: new SmtpMailer(settings) };
  return mailer.instance;
}
