/**
 * The predeploy check (firebase.json runs it after the build, before firebase-tools
 * resolves the params): a deploy stops, naming them, where the project's values
 * would be missing or only make sense on the emulator suite. firebase-tools would
 * itself refuse a non-interactive deploy with missing values, but would prompt an
 * interactive one, and takes an emulator value (an SMTP host on 127.0.0.1) as given.
 *
 * Reads what a deploy reads: functions/.env, then functions/.env.<projectId>
 * (GCLOUD_PROJECT, set by firebase-tools for predeploy hooks); never .env.local,
 * which only the emulator reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredParams } from 'firebase-functions/params';
import { SECRETS } from '../config';
import { parseDotenv } from './params';

const functionsDir = join(__dirname, '..', '..');

/** The params of the functions that a dotenv file must give (secrets come from Secret Manager). */
export function paramNames(): string[] {
  const secrets = new Set(SECRETS.map((secret) => secret.name));
  return declaredParams.map((param) => param.name).filter((name) => !secrets.has(name));
}

/** The params as a deploy of `projectId` reads them. */
export function deployedParams(projectId: string, dir = functionsDir): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of ['.env', `.env.${projectId}`]) {
    const path = join(dir, name);
    if (existsSync(path)) Object.assign(params, parseDotenv(readFileSync(path, 'utf8')));
  }
  return params;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|0\.0\.0\.0)$/i;
/** Domains reserved for examples and tests (RFC 2606, RFC 6761): no mail reaches them. */
const RESERVED_DOMAIN = /\.(example|test|invalid|localhost)>?$|[@.]example\.(com|net|org)>?$/i;

/** Why these values cannot be deployed: one line per param, naming it; empty when they can. */
export function deployProblems(params: Record<string, string>, names: readonly string[]): string[] {
  const problems = names
    .filter((name) => params[name] === undefined)
    .map((name) => `${name}: no value (it has no production default)`);
  const host = params.SMTP_HOST?.trim();
  if (host !== undefined && LOOPBACK_HOST.test(host))
    problems.push(`SMTP_HOST: ${host} is this machine, not a mail server`);
  const from = params.MAIL_FROM?.trim();
  if (from !== undefined && RESERVED_DOMAIN.test(from)) {
    problems.push(`MAIL_FROM: ${from} is an example address, whose mail no one receives`);
  }
  return problems;
}

interface HostingRewrite {
  source: string;
  function?: { functionId: string; region?: string };
}

/**
 * Firebase Hosting sends the console's `/api/**` to the `api` function in the region
 * firebase.json names; a rewrite to another region than the functions' would answer 404.
 */
export function hostingRewriteProblems(firebaseJson: { hosting?: { rewrites?: HostingRewrite[] } }, region?: string) {
  const api = firebaseJson.hosting?.rewrites?.find((rewrite) => rewrite.function?.functionId === 'api');
  if (!api?.function) return ['firebase.json: hosting has no rewrite to the api function (the console needs /api/**)'];
  if (region === undefined || api.function.region === region) return [];
  return [
    `firebase.json: hosting rewrites ${api.source} to region ${api.function.region}, FUNCTIONS_REGION is ${region}`,
  ];
}

function main(): number {
  const projectId = process.env.GCLOUD_PROJECT;
  if (!projectId) {
    process.stderr.write('deploy check: GCLOUD_PROJECT is not set (firebase deploy sets it for predeploy hooks)\n');
    return 1;
  }
  const params = deployedParams(projectId);
  const firebaseJson = JSON.parse(readFileSync(join(functionsDir, '..', 'firebase.json'), 'utf8'));
  const problems = [
    ...deployProblems(params, paramNames()),
    ...hostingRewriteProblems(firebaseJson, params.FUNCTIONS_REGION),
  ];
  if (problems.length === 0) return 0;
  process.stderr.write(
    `deploy stopped: ${projectId} needs production values in functions/.env.${projectId} or firebase.json:\n` +
      problems.map((problem) => `  - ${problem}\n`).join('') +
      '(See README, "Deploying to a real project".)\n',
  );
  return 1;
}

if (require.main === module) process.exit(main());
