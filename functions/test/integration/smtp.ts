import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1:1025, where the functions emulator's mailer
 * delivers (SMTP_HOST/SMTP_PORT in functions/.env). `refuse` makes it reject
 * every recipient, as a server that is up but will not take the mail.
 */
export class TestMailServer {
  readonly received: ParsedMail[] = [];
  refuse = false;
  private server: SMTPServer | undefined;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) =>
        callback(this.refuse ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }) : undefined),
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(1025, '127.0.0.1', () => resolve());
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
