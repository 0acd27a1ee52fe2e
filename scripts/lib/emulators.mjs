// What the emulator suite needs on these machines (the functions built, the console Hosting serves built), and the one
// launcher of a command inside `firebase emulators:exec`.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { adminCli, cacheDir, functionsDir, repoRoot } from './paths.mjs';

export const LOCAL_PROJECT_ID = 'demo-kiosk-rewards';
export const TEST_PROJECT_ID = 'demo-kiosk-rewards-test';
export const SERVICE_EMULATORS = 'functions,firestore,auth';
export const EMULATORS = `${SERVICE_EMULATORS},hosting`;

const configured = JSON.parse(readFileSync(join(repoRoot, 'firebase.json'), 'utf8')).emulators;
export const HOSTS = Object.fromEntries(
  ['functions', 'firestore', 'auth', 'hub', 'hosting'].map((name) => [
    name,
    `${configured[name].host}:${configured[name].port}`,
  ]),
);
export const CONSOLE_URL = `http://${HOSTS.hosting}`;
export const apiUrl = (/** @type {string} */ projectId) => `http://${HOSTS.functions}/${projectId}/us-central1/api`;

const SDK_JAR_NAME = 'cloud-firestore-emulator.jar';
const KNOWN_SDK_JAR = `/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/${SDK_JAR_NAME}`;
const FIRESTORE_MAIN_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

/** The Cloud SDK's Firestore emulator (its jar lacks Main-Class) via a launcher jar, else firebase-tools' download. */
export function emulatorEnv() {
  // A burst of requests makes the functions emulator start one worker per request; on 2 cores dozens of them need
  // longer than the default 30 s to load.
  const env = { FUNCTIONS_DISCOVERY_TIMEOUT: '180' };
  const listed = spawnSync('dpkg', ['-L', 'google-cloud-cli-firestore-emulator'], { encoding: 'utf8' });
  const fromPackage = (listed.stdout ?? '').split('\n').find((line) => line.endsWith(`/${SDK_JAR_NAME}`));
  const sdkJar = [fromPackage, KNOWN_SDK_JAR].find((jar) => jar && existsSync(jar));
  if (!sdkJar) return env;
  const launcherDir = join(cacheDir, 'firestore-launcher');
  const launcher = join(launcherDir, 'firestore-emulator-launcher.jar');
  if (!existsSync(launcher)) {
    mkdirSync(launcherDir, { recursive: true });
    // Beside the launcher, the SDK jar has a name short enough for one manifest line (72 bytes at most).
    rmSync(join(launcherDir, SDK_JAR_NAME), { force: true });
    symlinkSync(sdkJar, join(launcherDir, SDK_JAR_NAME));
    const manifest = join(launcherDir, 'MANIFEST.MF');
    writeFileSync(
      manifest,
      `Manifest-Version: 1.0\nMain-Class: ${FIRESTORE_MAIN_CLASS}\nClass-Path: ${SDK_JAR_NAME}\n`,
    );
    execFileSync('jar', ['cfm', launcher, manifest]);
  }
  return { ...env, FIRESTORE_EMULATOR_BINARY_PATH: launcher };
}

/**
 * The emulator reads secrets from functions/.secret.local and otherwise asks Cloud Secret Manager, which a demo project
 * cannot reach. Locally no SMTP password is used (SMTP_USER is empty), so a placeholder keeps the emulator offline.
 */
export function ensureLocalSecrets() {
  const file = join(functionsDir, '.secret.local');
  if (!existsSync(file)) writeFileSync(file, 'SMTP_PASSWORD=not-used-by-the-local-mail-catcher\n');
}

const srcDir = join(functionsDir, 'src');
const libDir = join(functionsDir, 'lib');
const buildInfo = join(cacheDir, 'tsc', 'functions.tsbuildinfo');

export const TSC = join(functionsDir, 'node_modules', '.bin', 'tsc');
/**
 * How functions/src compiles into functions/lib (tsconfig.build.json, as `npm run build`), incrementally: the build
 * info in .cache (outside functions/, where a write would make the functions emulator reload) lets tsc re-emit only the
 * sources whose content changed, and a watcher started on built code writes nothing.
 */
export const COMPILE_ARGS = ['-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', buildInfo];

/** @param {string} path @returns {number} the newest modification time under `path` (0 when absent) */
function modified(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => modified(join(path, name))));
}

/** Each source's output in lib, its mtime (0: missing) and the mtime it needs (its source's, the settings'). */
function sourcesAndOutputs() {
  const settings = Math.max(
    ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((name) => modified(join(functionsDir, name))),
  );
  const sources = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'),
  );
  return sources.map((name) => {
    const output = join(libDir, name.replace(/\.ts$/, '.js'));
    return { output, outputTime: modified(output), needed: Math.max(modified(join(srcDir, name)), settings) };
  });
}

export function functionsBuilt() {
  return existsSync(buildInfo) && sourcesAndOutputs().every(({ outputTime, needed }) => outputTime >= needed);
}

/** Afterwards functionsBuilt() holds. `quiet`: compiler messages to stderr, stdout left to the caller's (the CLI's). */
export function buildFunctions({ quiet = false } = {}) {
  // tsc trusts its build info: it never restores a deleted output, and it would leave in place an output that another
  // compile wrote later (`npm run build`, a deploy's predeploy). Then it starts from scratch.
  const infoTime = modified(buildInfo);
  if (sourcesAndOutputs().some(({ outputTime }) => outputTime === 0 || outputTime > infoTime)) {
    rmSync(buildInfo, { force: true });
  }
  const started = new Date();
  try {
    execFileSync(TSC, COMPILE_ARGS, { cwd: functionsDir, stdio: quiet ? ['ignore', 2, 2] : 'inherit' });
  } catch (error) {
    rmSync(buildInfo, { force: true });
    throw error;
  }
  // tsc leaves an output alone when its source was touched but not changed (a branch switched away and back): mark it
  // current, or every later start would compile again. One edited during this compile stays older.
  for (const { output, outputTime, needed } of sourcesAndOutputs()) {
    if (outputTime < needed) utimesSync(output, started, started);
  }
  const now = new Date();
  utimesSync(buildInfo, now, now);
}

// The operator console, built by Vite into console/dist, which the Hosting emulator serves (firebase.json).
export const consoleDir = join(repoRoot, 'console');
/** What a build reads: a change to any of these makes console/dist stale. */
const BUILD_INPUTS = ['src', 'index.html', 'public', 'vite.config.ts', 'package.json', 'tsconfig.json', '.env'];

/** Builds the console (type-check, then `vite build`) unless console/dist is up to date. */
export function buildConsole() {
  const built = modified(join(consoleDir, 'dist', 'index.html'));
  const inputs = Math.max(...BUILD_INPUTS.map((name) => modified(join(consoleDir, name))));
  if (built < inputs) execFileSync('npm', ['run', '--silent', 'build'], { cwd: consoleDir, stdio: 'inherit' });
}

/**
 * Resolves once `url` answers (`ok`: 2xx); rejects after `timeoutMs`, or once `child` (what serves it) has exited.
 * @param {string} url @param {number} timeoutMs
 * @param {{ ok?: boolean, intervalMs?: number, child?: import('node:child_process').ChildProcess }} [options]
 */
export const waitForHttp = (url, timeoutMs, { ok = false, intervalMs = 200, child } = {}) => {
  const answered = async () => {
    if (child && child.exitCode !== null) throw new Error(`${child.spawnargs.join(' ')} exited before answering`);
    const response = await fetch(url).catch(() => undefined);
    return response && (!ok || response.ok) ? true : undefined;
  };
  return waitFor(`${url} to answer${ok ? ' 2xx' : ''}`, answered, timeoutMs, undefined, intervalMs);
};

/** `firebase emulators:start` of the local stack (`npm start`'s emulators): its command, arguments and spawn options. */
export function localEmulators() {
  ensureLocalSecrets();
  const bin = join(repoRoot, 'node_modules', '.bin');
  const env = { ...process.env, ...emulatorEnv(), PATH: `${bin}:${process.env.PATH}` };
  const args = ['emulators:start', '--only', EMULATORS, '--project', LOCAL_PROJECT_ID];
  return /** @type {const} */ ([join(bin, 'firebase'), args, { cwd: repoRoot, env }]);
}

/** `act` on a process, unless it never started or is already gone (its own 'error' or 'exit' says so). */
export function unlessGone(/** @type {() => void} */ act) {
  try {
    act();
  } catch {
    // Gone: nothing left to act on.
  }
}

/**
 * Stops `child`, started detached, as Ctrl-C in a terminal would: `signal` to its process group, SIGKILL if it has not
 * exited (`exited`) within `graceMs`; once it has, whatever it left in its group is killed too.
 * @param {import('node:child_process').ChildProcess} child @param {Promise<unknown>} exited
 * @param {NodeJS.Signals} signal @param {number} graceMs
 */
export async function stopGroup(child, exited, signal, graceMs) {
  const send = (/** @type {NodeJS.Signals} */ name) => unlessGone(() => child.pid && process.kill(-child.pid, name));
  send(signal);
  const force = setTimeout(() => {
    console.error(`${child.spawnargs.join(' ')} did not stop within ${graceMs / 1000} s; killing it.`);
    send('SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(force);
  send('SIGKILL');
}

/**
 * The operator CLI (as built) with `args` against `projectId` on the emulators; `started` is given its process.
 * @param {string} projectId @param {string[]} args
 * @param {(child: import('node:child_process').ChildProcess) => void} [started]
 * @returns {Promise<{ status: number, stdout: string, stderr: string }>}
 */
export function runAdmin(projectId, args, started) {
  const hosts = { FIRESTORE_EMULATOR_HOST: HOSTS.firestore, FIREBASE_AUTH_EMULATOR_HOST: HOSTS.auth };
  const env = { ...process.env, ...hosts, GCLOUD_PROJECT: projectId };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [adminCli, ...args], { cwd: repoRoot, env }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code) || 1 : 0, stdout, stderr }),
    );
    started?.(child);
  });
}

const shellQuote = (/** @type {string} */ arg) =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * `command` (its words, by a shell from `cwd`, default the repository root) inside `firebase emulators:exec` of `only`,
 * which fails the run if they do not start and gives the command their hosts (test/harness/emulators.ts reads them).
 * The output passes through; `onLine` also sees each of its lines. Resolves to the exit status.
 * @param {{ projectId: string, command: string[], only?: string, cwd?: string, onLine?: (line: string) => void }} options
 * @returns {Promise<number>}
 */
export function runInEmulators({ projectId, command, only = SERVICE_EMULATORS, cwd, onLine }) {
  ensureLocalSecrets();
  const inner = `${cwd ? `cd ${shellQuote(cwd)} && ` : ''}${command.map(shellQuote).join(' ')}`;
  const args = ['firebase', 'emulators:exec', '--only', only, '--project', projectId, inner];
  const child = spawn('npx', args, {
    cwd: repoRoot,
    env: { ...process.env, ...emulatorEnv() },
    stdio: onLine ? ['inherit', 'pipe', 'pipe'] : 'inherit',
  });
  if (onLine) {
    /** @param {import('node:stream').Readable | null} stream @param {NodeJS.WritableStream} sink */
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
