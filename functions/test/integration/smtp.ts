import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { MailCatcher } from '../harness/mail-catcher';

/** SMTP_PORT of functions/.env, or of .env.<project> where that sets it: where the functions emulator's mailer delivers. */
function functionsSmtpPort(): number {
  const files = [
    join(__dirname, '..', '..', '.env'),
    join(__dirname, '..', '..', `.env.${process.env.GCLOUD_PROJECT}`),
  ];
  const params = Object.assign(
    {},
    ...files.filter((file) => existsSync(file)).map((file) => parseEnv(readFileSync(file, 'utf8'))),
  );
  return Number(params.SMTP_PORT);
}

/** The mail catcher where the functions emulator's mailer delivers, keeping every mail. */
export class TestMailServer extends MailCatcher {
  constructor() {
    super({ port: functionsSmtpPort() });
  }
}
