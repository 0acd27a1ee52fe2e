import type { Transporter } from 'nodemailer';
import type { SmtpSettings } from '../config';

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

/** nodemailer over SMTP. nodemailer is loaded on the first mail, not at cold start. */
export class SmtpMailer implements Mailer {
  private transporter: Transporter | undefined;

  constructor(private readonly settings: SmtpSettings) {}

  async send(mail: OutgoingMail): Promise<string> {
    this.transporter ??= await this.createTransporter();
    try {
      const info = await this.transporter.sendMail({ from: this.settings.from, ...mail });
      return info.messageId;
    } catch (error) {
      const code =
        (error as { code?: unknown; responseCode?: unknown }).responseCode ??
        (error as { code?: unknown }).code ??
        'unknown';
      throw new MailDeliveryError(String(code));
    }
  }

  private async createTransporter(): Promise<Transporter> {
    const { createTransport } = await import('nodemailer');
    const { host, port, secure, user, password } = this.settings;
    return createTransport({
      host,
      port,
      secure,
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
