/**
 * The params the functions of a project run with, for the commands that apply the
 * same rules (e.g. KIOSK_ONLINE_MINUTES for `online`): functions/.env, then
 * functions/.env.<projectId> over it, as a deploy and the emulator read them. A
 * variable already set in the environment wins, so one run can try another value.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const functionsDir = join(__dirname, '..', '..');

/** `NAME=value` lines; comments, blank lines and anything else are skipped; one pair of quotes is removed. */
export function parseDotenv(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (match) params[match[1]] = match[2].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return params;
}

export function loadProjectParams(projectId: string): void {
  const params: Record<string, string> = {};
  for (const name of ['.env', `.env.${projectId}`]) {
    const path = join(functionsDir, name);
    if (existsSync(path)) Object.assign(params, parseDotenv(readFileSync(path, 'utf8')));
  }
  for (const [name, value] of Object.entries(params)) process.env[name] ??= value;
}
