import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { MailCatcher } from '../harness/mail-catcher';

/**
 * SMTP_PORT as the functions emulator reads it (functions/.env, then .env.<project>,
 * then the emulator's own .env.local over both): where its mailer delivers.
 */
function functionsSmtpPort(): number {
  const files = ['.env', `.env.${process.env.GCLOUD_PROJECT}`, '.env.local'].map((name) =>
    join(__dirname, '..', '..', name),
  );
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
