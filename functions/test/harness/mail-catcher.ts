import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in this process, on `host`:`port` (127.0.0.1 and any free port unless told), that
 * takes every mail. `keep` parses and keeps each mail in `received`; without it the
 * mail is only read (what the bench wants: no parsing in the process that measures).
 * `refuse` makes it reject every recipient, as a server that is up but will not take
 * the mail.
 */
export class MailCatcher {
  readonly received: ParsedMail[] = [];
  refuse = false;
  readonly #host: string;
  readonly #port: number;
  readonly #keep: boolean;
  #server: SMTPServer | undefined;

  constructor({ host = '127.0.0.1', port = 0, keep = true }: { host?: string; port?: number; keep?: boolean } = {}) {
    this.#host = host;
    this.#port = port;
    this.#keep = keep;
  }

  /** Starts listening; resolves to the port. */
  async start(): Promise<number> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) =>
        callback(this.refuse ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }) : undefined),
      onData: (stream, _session, callback) => {
        if (!this.#keep) {
          stream.on('data', () => {});
          stream.on('end', () => callback());
          return;
        }
        simpleParser(stream)
          .then((mail) => {
            this.received.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, this.#host, () => resolve());
    });
    return (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
