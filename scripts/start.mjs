// @ts-check
// `npm start`: the local stack. Builds the functions, then runs the TypeScript
// compiler in watch mode (an edit in functions/src reloads the functions), the mail
// catcher (maildev) and the emulator suite (functions, firestore, auth); seeds demo
// data once the API answers and prints how to use it. Runs until Ctrl-C or SIGTERM,
// then stops everything; if any part stops on its own, everything stops, exit 1.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  EMULATORS,
  HOSTS,
  LOCAL_PROJECT_ID,
  apiUrl,
  buildFunctions,
  emulatorEnv,
  ensureLocalSecrets,
  waitForHttp,
} from './lib/emulators.mjs';
import { functionsDir, repoRoot } from './lib/paths.mjs';
import { API_REFERENCE_URL, serveApiReference } from './lib/api-reference.mjs';
import { startSilentSweep } from './lib/silent-sweep.mjs';

const API = apiUrl(LOCAL_PROJECT_ID);
// The functions mail 127.0.0.1:1025 (SMTP_HOST / SMTP_PORT in functions/.env).
const MAIL = { smtpPort: '1025', webPort: '1080' };
const MAIL_PAGE = `http://127.0.0.1:${MAIL.webPort}`;
const STARTUP_TIMEOUT_MS = 120_000;
const COMPILE_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

const bin = (/** @type {string} */ dir, /** @type {string} */ name) => join(dir, 'node_modules', '.bin', name);
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {{ name: string, proc: import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>,
 *   stopSignal: NodeJS.Signals, running: boolean, exited: Promise<void> }} Child
 */
/** @type {Child[]} */
const children = [];
let stopping = false;

/**
 * Starts a long-running part of the stack in its own process group, so that Ctrl-C
 * reaches only this script, which then stops each part once, the way it expects
 * (the emulator suite shuts down cleanly on its first SIGINT). Output lines are
 * prefixed with the part's name.
 */
/**
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @param {NodeJS.Signals} [stopSignal]
 * @returns {Child}
 */
function startChild(name, command, args, options = {}, stopSignal = 'SIGTERM') {
  const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  /** @type {Child} */
  const child = { name, proc, stopSignal, running: true, exited: Promise.resolve() };
  child.exited = new Promise((/** @type {(value?: void) => void} */ resolve) => {
    const ended = (/** @type {string} */ reason) => {
      if (!child.running) return;
      child.running = false;
      if (!stopping) {
        console.error(`\n${name} stopped unexpectedly (${reason}); stopping the local stack.`);
        void shutdown(1);
      }
      resolve();
    };
    proc.on('exit', (code, signal) => ended(signal ? `signal ${signal}` : `exit code ${code}`));
    proc.on('error', (error) => ended(error.message));
  });
  createInterface({ input: proc.stdout }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  createInterface({ input: proc.stderr }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  children.push(child);
  return child;
}

/**
 * @param {Child} child
 * @param {NodeJS.Signals} signal
 */
function signalGroup(child, signal) {
  try {
    process.kill(-(child.proc.pid ?? 0), signal);
  } catch {
    // Already gone.
  }
}

/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (!child.running) continue;
    try {
      if (child.proc.pid !== undefined) process.kill(child.proc.pid, child.stopSignal);
    } catch {
      // Already gone.
    }
  }
  const force = setTimeout(() => {
    console.error(`Some parts did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing them.`);
    for (const child of children) if (child.running) signalGroup(child, 'SIGKILL');
  }, STOP_TIMEOUT_MS);
  await Promise.all(children.map((child) => child.exited));
  clearTimeout(force);
  // Whatever a part left behind in its process group (an emulator's subprocess) goes too.
  for (const child of children) signalGroup(child, 'SIGKILL');
  process.exit(code);
}

/** Never resolves: shutdown() ends the process. */
const forever = () => new Promise(() => {});

/** @param {string} message */
function fail(message) {
  console.error(`\n${message}`);
  void shutdown(1);
  return forever();
}

/** Between the steps of the start-up: once something stopped the stack, start nothing more. */
const unlessStopping = () => (stopping ? forever() : Promise.resolve());

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return; // npm forwards Ctrl-C too: one stop is enough
    console.log('\nStopping the local stack...');
    void shutdown(0);
  });
}

/** Resolves once `child` prints a line matching `pattern`. */
/**
 * @param {Child} child
 * @param {RegExp} pattern
 * @returns {Promise<string>}
 */
function lineFrom(child, pattern) {
  return new Promise((resolve) => {
    for (const stream of [child.proc.stdout, child.proc.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (pattern.test(line)) resolve(line);
      });
    }
  });
}

/** The emulator answers (404) before it has loaded the functions: wait for the health route itself. */
async function waitForApi() {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  await waitForHttp(`${API}/`, STARTUP_TIMEOUT_MS);
  for (;;) {
    const ok = await fetch(`${API}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${API}/ did not answer 200 within ${STARTUP_TIMEOUT_MS / 1000} s`);
    await sleep(500);
  }
}

/** `admin seed` against the emulators just started; resolves to its report (what it made, lines to paste). */
function seed() {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(functionsDir, 'lib', 'cli', 'admin.js'), 'seed'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        FIRESTORE_EMULATOR_HOST: HOSTS.firestore,
        FIREBASE_AUTH_EMULATOR_HOST: HOSTS.auth,
        GCLOUD_PROJECT: LOCAL_PROJECT_ID,
      },
    });
    let output = '';
    proc.stdout.on('data', (chunk) => (output += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`seeding failed (exit code ${code})`));
      if (!output.trim()) return reject(new Error('seeding printed no report'));
      resolve(output.trimEnd());
    });
  });
}

/** The stack's own addresses around the seed command's report, which carries the demo data and the examples. */
/** @param {string} seedReport */
function banner(seedReport) {
  const rule = '─'.repeat(78);
  return [
    '',
    rule,
    ' Kiosk Rewards local stack is running. Ctrl-C stops it.',
    '',
    ` API            ${API}`,
    ` Mail catcher   ${MAIL_PAGE}   (one-time-code mails land here)`,
    ` API reference  ${API_REFERENCE_URL}   (from ${API}/openapi.json)`,
    '',
    ...seedReport.split('\n').map((line) => (line ? ` ${line}` : line)),
    '',
    ' More: npm run admin -- help',
    rule,
    '',
  ].join('\n');
}

ensureLocalSecrets();
try {
  buildFunctions();
} catch {
  console.error('The functions do not compile (see the messages above).');
  process.exit(1);
}
const env = { ...process.env, ...emulatorEnv() };

startChild('maildev', bin(repoRoot, 'maildev'), [
  '--smtp',
  MAIL.smtpPort,
  '--ip',
  '127.0.0.1',
  '--web',
  MAIL.webPort,
  '--web-ip',
  '127.0.0.1',
]);

// The watcher compiles everything once when it starts; the emulators start after
// that, so that first compile does not make them reload the functions right away.
const tsc = startChild(
  'tsc',
  bin(functionsDir, 'tsc'),
  ['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
  { cwd: functionsDir },
);
const compiled = await Promise.race([lineFrom(tsc, /Watching for file changes/), sleep(COMPILE_TIMEOUT_MS)]);
if (!compiled) await fail(`tsc --watch did not finish its first compile within ${COMPILE_TIMEOUT_MS / 1000} s.`);
await unlessStopping();

startChild(
  'emulators',
  bin(repoRoot, 'firebase'),
  ['emulators:start', '--only', EMULATORS, '--project', LOCAL_PROJECT_ID],
  { cwd: repoRoot, env },
  'SIGINT',
);

try {
  await waitForApi();
} catch (error) {
  await fail(
    `The API did not come up: ${error instanceof Error ? error.message : error}. See the emulator output above.`,
  );
}
await unlessStopping();

let seedReport;
try {
  seedReport = await seed();
} catch (error) {
  await fail(`Could not seed the demo data: ${error instanceof Error ? error.message : error}.`);
}
await unlessStopping();
serveApiReference(API);
startSilentSweep((line) => console.log(`[sweep] ${line}`));
console.log(banner(seedReport));
