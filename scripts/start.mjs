// @ts-check
// `npm start`: the local stack. The emulator suite (functions, firestore, auth, hosting with the console, built when
// console/ changed); once the API answers, maildev, the demo seed, the API reference page and tsc --watch (an edit in
// functions/src reloads the functions). Compiles first only when functions/lib is stale. Ctrl-C or SIGTERM stops
// everything; a part stopping on its own stops everything, exit 1.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { buildConsole } from './lib/console.mjs';
import {
  CONSOLE_URL,
  COMPILE_ARGS,
  EMULATORS,
  LOCAL_PROJECT_ID,
  TSC,
  apiUrl,
  buildFunctions,
  emulatorEnv,
  ensureLocalSecrets,
  functionsBuilt,
  runAdmin,
  waitForHttp,
} from './lib/emulators.mjs';
import { functionsDir, repoRoot } from './lib/paths.mjs';
import { API_REFERENCE_URL, serveApiReference } from './lib/api-reference.mjs';
import { SCHEDULED_SWEEPS, startSweep } from './lib/sweeps.mjs';

const API = apiUrl(LOCAL_PROJECT_ID);
// The functions mail 127.0.0.1:1025 (SMTP_HOST / SMTP_PORT in functions/.env.local, the emulators' own).
const MAIL = { smtpPort: '1025', webPort: '1080' };
const MAIL_PAGE = `http://127.0.0.1:${MAIL.webPort}`;
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
/** The parts started after the first answer run at nice 10: on two cores they leave the emulators what they need. */
const BACKGROUND_PRIORITY = 10;

const bin = (/** @type {string} */ dir, /** @type {string} */ name) => join(dir, 'node_modules', '.bin', name);

/**
 * @typedef {{ name: string, proc: import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>,
 *   stopSignal: NodeJS.Signals, running: boolean, exited: Promise<void> }} Child
 */
/** @type {Child[]} */
const children = [];
let stopping = false;

/**
 * Starts a part of the stack in its own process group, so that Ctrl-C reaches only this script, which stops each part
 * once, as it expects (the emulators shut down cleanly on their first SIGINT); its lines prefixed with its name.
 * @param {string} name @param {string} command @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @param {{ stopSignal?: NodeJS.Signals, background?: boolean }} [how]
 * @returns {Child}
 */
function startChild(name, command, args, options = {}, { stopSignal = 'SIGTERM', background = false } = {}) {
  const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (background) lowerPriority(proc);
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

/** @param {import('node:child_process').ChildProcess} proc */
function lowerPriority(proc) {
  try {
    setPriority(proc.pid ?? 0, BACKGROUND_PRIORITY);
  } catch {
    // Not started, or already gone: its own 'error' or 'exit' says so.
  }
}

/**
 * `signal` to process `pid` (its group where negative), unless gone.
 * @param {number | undefined} pid @param {NodeJS.Signals} signal
 */
function kill(pid, signal) {
  try {
    if (pid) process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.running) kill(child.proc.pid, child.stopSignal);
  const force = setTimeout(() => {
    console.error(`Some parts did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing them.`);
    for (const child of children) if (child.running) kill(-(child.proc.pid ?? 0), 'SIGKILL');
  }, STOP_TIMEOUT_MS);
  await Promise.all(children.map((child) => child.exited));
  clearTimeout(force);
  // Whatever a part left behind in its process group (an emulator's subprocess) goes too.
  for (const child of children) kill(-(child.proc.pid ?? 0), 'SIGKILL');
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

/**
 * `admin seed` against the emulators just started: its report (what it made, lines to paste).
 * @returns {Promise<string>}
 */
async function seed() {
  const { status, stdout, stderr } = await runAdmin(LOCAL_PROJECT_ID, ['seed'], lowerPriority);
  if (status !== 0) throw new Error(`exit code ${status}: ${stderr.trim()}`);
  if (!stdout.trim()) throw new Error('seeding printed no report');
  return stdout.trimEnd();
}

/**
 * The stack's own addresses around the seed command's report, which carries the demo data and the examples.
 * @param {string} seedReport
 * @param {number} answeredMs from this script's launch to the API's first 200 (npm's own start-up, before it, is not in it)
 */
function banner(seedReport, answeredMs) {
  const rule = '─'.repeat(78);
  return [
    '',
    rule,
    ' Kiosk Rewards local stack is running. Ctrl-C stops it.',
    '',
    ` Console        ${CONSOLE_URL}   (sign in as the admin account below)`,
    ` API            ${API}`,
    `                answered its first request ${(answeredMs / 1000).toFixed(1)} s after launch`,
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
if (!functionsBuilt()) {
  try {
    buildFunctions();
  } catch {
    console.error('The functions do not compile (see the messages above).');
    process.exit(1);
  }
}
try {
  buildConsole();
} catch {
  console.error('The console does not build (see the messages above).');
  process.exit(1);
}

startChild(
  'emulators',
  bin(repoRoot, 'firebase'),
  ['emulators:start', '--only', EMULATORS, '--project', LOCAL_PROJECT_ID],
  { cwd: repoRoot, env: { ...process.env, ...emulatorEnv() } },
  { stopSignal: 'SIGINT' },
);

try {
  // The emulator answers (404) before it has loaded the functions: wait for the health route itself.
  await waitForHttp(`${API}/`, STARTUP_TIMEOUT_MS, { ok: true });
} catch (error) {
  await fail(
    `The API did not come up: ${error instanceof Error ? error.message : error}. See the emulator output above.`,
  );
}
const answeredMs = performance.now();
await unlessStopping();

// The first answer needs none of what follows, and on two cores its start-up (CPU seconds: maildev 1.5, the seed 0.5
// plus the emulator work it causes, the watcher's first pass 3.5) would hold the emulators' own start-up back by
// seconds. The reference page costs nothing until it is first opened (it is built then).
serveApiReference(API);
startChild(
  'maildev',
  bin(repoRoot, 'maildev'),
  ['--smtp', MAIL.smtpPort, '--ip', '127.0.0.1', '--web', MAIL.webPort, '--web-ip', '127.0.0.1'],
  {},
  { background: true },
);
const seeded = seed().catch((error) =>
  fail(`Could not seed the demo data: ${error instanceof Error ? error.message : error}.`),
);
// Incremental (COMPILE_ARGS): on the code built above the watcher's first pass writes nothing, so the emulators do not
// reload; from then on an edit in functions/src is compiled (its errors shown with [tsc]) and reloads the functions.
startChild(
  'tsc',
  TSC,
  [...COMPILE_ARGS, '--watch', '--preserveWatchOutput'],
  { cwd: functionsDir },
  { background: true },
);
const seedReport = await seeded;
try {
  await waitForHttp(MAIL_PAGE, STARTUP_TIMEOUT_MS);
} catch (error) {
  await fail(`The mail catcher did not come up: ${error instanceof Error ? error.message : error}.`);
}
await unlessStopping();
for (const sweep of SCHEDULED_SWEEPS) startSweep(sweep, (line) => console.log(`[sweep] ${line}`));
console.log(banner(seedReport, answeredMs));
