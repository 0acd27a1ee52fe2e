// What the Firebase emulator suite needs on these machines, shared by `npm start`,
// `npm test`, `npm run bench`, `npm run loadtest` and the operator CLI; and the one
// launcher of a command inside `firebase emulators:exec`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cacheDir, functionsDir, repoRoot } from './paths.mjs';

export const LOCAL_PROJECT_ID = 'demo-kiosk-rewards';
export const TEST_PROJECT_ID = 'demo-kiosk-rewards-test';
export const EMULATORS = 'functions,firestore,auth';

/** Where `firebase emulators:start` puts each emulator: firebase.json's `emulators` section. */
const configured = JSON.parse(readFileSync(join(repoRoot, 'firebase.json'), 'utf8')).emulators;
export const HOSTS = Object.fromEntries(
  ['functions', 'firestore', 'auth', 'hub'].map((name) => [name, `${configured[name].host}:${configured[name].port}`]),
);
export const apiUrl = (/** @type {string} */ projectId) => `http://${HOSTS.functions}/${projectId}/us-central1/api`;

const SDK_JAR_NAME = 'cloud-firestore-emulator.jar';
const KNOWN_SDK_JAR = `/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/${SDK_JAR_NAME}`;
const FIRESTORE_MAIN_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

function findSdkFirestoreJar() {
  const listed = spawnSync('dpkg', ['-L', 'google-cloud-cli-firestore-emulator'], { encoding: 'utf8' });
  const fromPackage = (listed.stdout ?? '').split('\n').find((line) => line.endsWith(`/${SDK_JAR_NAME}`));
  if (fromPackage && existsSync(fromPackage)) return fromPackage;
  return existsSync(KNOWN_SDK_JAR) ? KNOWN_SDK_JAR : undefined;
}

/**
 * Manifest lines stop at 72 bytes; longer values continue on lines that start with a space.
 * @param {string} name
 * @param {string} value
 */
function manifestLine(name, value) {
  const text = `${name}: ${value}`;
  const lines = [text.slice(0, 70)];
  for (let i = 70; i < text.length; i += 69) lines.push(` ${text.slice(i, i + 69)}`);
  return lines.join('\n');
}

/**
 * firebase-tools downloads its Firestore emulator jar at first start, which fails
 * without internet. The Cloud SDK's emulator is installed on these machines but its
 * jar has no Main-Class, so a launcher jar (a manifest only) points java at it.
 * Where no SDK jar exists, firebase-tools downloads its own as usual.
 */
export function emulatorEnv() {
  // A burst of requests makes the functions emulator start one worker per request;
  // on 2 cores dozens of them need longer than the default 30 s to load.
  const env = { FUNCTIONS_DISCOVERY_TIMEOUT: '180' };
  const sdkJar = findSdkFirestoreJar();
  if (!sdkJar) return env;
  const launcherDir = join(cacheDir, 'firestore-launcher');
  const launcher = join(launcherDir, 'firestore-emulator-launcher.jar');
  if (!existsSync(launcher)) {
    mkdirSync(launcherDir, { recursive: true });
    const manifest = join(launcherDir, 'MANIFEST.MF');
    writeFileSync(
      manifest,
      [
        'Manifest-Version: 1.0',
        manifestLine('Main-Class', FIRESTORE_MAIN_CLASS),
        manifestLine('Class-Path', `file:${sdkJar}`),
        '',
      ].join('\n'),
    );
    execFileSync('jar', ['cfm', launcher, manifest]);
  }
  return { ...env, FIRESTORE_EMULATOR_BINARY_PATH: launcher };
}

/**
 * The emulator reads secrets from functions/.secret.local and otherwise asks Cloud
 * Secret Manager, which a demo project cannot reach. Locally no SMTP password is
 * used (SMTP_USER is empty), so a placeholder keeps the emulator offline.
 */
export function ensureLocalSecrets() {
  const file = join(functionsDir, '.secret.local');
  if (!existsSync(file)) writeFileSync(file, 'SMTP_PASSWORD=not-used-by-the-local-mail-catcher\n');
}

/**
 * Compiles functions/src into functions/lib. `quiet` keeps stdout for the caller's
 * own output (the operator CLI's): compiler messages go to stderr instead.
 */
export function buildFunctions({ quiet = false } = {}) {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: functionsDir, stdio: quiet ? ['ignore', 2, 2] : 'inherit' });
}

/**
 * Resolves once `url` answers at all, or rejects after `timeoutMs`.
 * @param {string} url
 * @param {number} timeoutMs
 */
export async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** `arg` as one word of a POSIX shell command line. */
const shellQuote = (/** @type {string} */ arg) =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `command` (its words; run by a shell from `cwd`, default the repository root)
 * inside `firebase emulators:exec` with the functions, Firestore and Auth emulators for
 * `projectId`. emulators:exec fails the run if they do not start, and gives the command
 * their hosts in its environment (what test/harness/emulators.ts reads). `config` is
 * another firebase.json (other ports). The output passes through; `onLine` also sees
 * each of its lines. Resolves to the exit status.
 * @param {{ projectId: string, command: string[], cwd?: string, config?: string, onLine?: (line: string) => void }} options
 * @returns {Promise<number>}
 */
export function runInEmulators({ projectId, command, cwd, config, onLine }) {
  ensureLocalSecrets();
  const inner = `${cwd ? `cd ${shellQuote(cwd)} && ` : ''}${command.map(shellQuote).join(' ')}`;
  const args = [
    'firebase',
    ...(config ? ['--config', config] : []),
    'emulators:exec',
    '--only',
    EMULATORS,
    '--project',
    projectId,
    inner,
  ];
  const child = spawn('npx', args, {
    cwd: repoRoot,
    env: { ...process.env, ...emulatorEnv() },
    stdio: onLine ? ['inherit', 'pipe', 'pipe'] : 'inherit',
  });
  if (onLine) {
    /**
     * @param {import('node:stream').Readable | null} stream
     * @param {NodeJS.WritableStream} sink
     */
    const tee = (stream, sink) => {
      if (!stream) return;
      stream.pipe(sink, { end: false });
      createInterface({ input: stream }).on('line', onLine);
    };
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
  }
  return new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
}
