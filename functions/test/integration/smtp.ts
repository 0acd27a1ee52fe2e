import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { MailCatcher } from '../harness/mail-catcher';

/**
 * The params the functions emulator runs with: functions/.env, then .env.<project>,
 * then the emulator's own .env.local over both.
 */
export function functionsParams(): Record<string, string | undefined> {
  const files = ['.env', `.env.${process.env.GCLOUD_PROJECT}`, '.env.local'].map((name) =>
    join(__dirname, '..', '..', name),
  );
  return Object.assign(
    {},
    ...files.filter((file) => existsSync(file)).map((file) => parseEnv(readFileSync(file, 'utf8'))),
  );
}

/** SMTP_PORT as the functions emulator reads it: where its mailer delivers. */
const functionsSmtpPort = (): number => Number(functionsParams().SMTP_PORT);

/** The mail catcher where the functions emulator's mailer delivers, keeping every mail. */
export class TestMailServer extends MailCatcher {
  constructor() {
    super({ port: functionsSmtpPort() });
  }
}
