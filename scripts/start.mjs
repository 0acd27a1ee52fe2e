// `npm start`: the local stack (README.md, "The two commands"). Ctrl-C or SIGTERM stops everything; a part stopping on
// its own stops everything, exit 1.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  CONSOLE_URL,
  COMPILE_ARGS,
  LOCAL_PROJECT_ID,
  TSC,
  apiUrl,
  buildConsole,
  buildFunctions,
  functionsBuilt,
  localEmulators,
  runAdmin,
  stopGroup,
  unlessGone,
  waitForHttp,
} from './lib/emulators.mjs';
import { cacheDir, functionsDir, repoRoot } from './lib/paths.mjs';
import { buildReferencePage } from './lib/redocly.cjs';

const API = apiUrl(LOCAL_PROJECT_ID);
// The functions mail 127.0.0.1:1025 (SMTP_HOST / SMTP_PORT in functions/.env.local, the emulators' own).
const MAIL = { smtpPort: '1025', webPort: '1080' };
const MAIL_PAGE = `http://127.0.0.1:${MAIL.webPort}`;
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
/** The parts started after the first answer run at nice 10: on two cores they leave the emulators what they need. */
const BACKGROUND_PRIORITY = 10;

/** @type {{ proc: import('node:child_process').ChildProcess, stopSignal: NodeJS.Signals, exited: Promise<unknown> }[]} */
const children = [];
let stopping = false;

/**
 * Starts a part of the stack in its own process group, so that Ctrl-C reaches only this script, which stops each part
 * once, as it expects (the emulators shut down cleanly on their first SIGINT); its lines prefixed with its name.
 * @param {string} name @param {string} command @param {readonly string[]} args
 * @param {import('node:child_process').SpawnOptions & { stopSignal?: NodeJS.Signals, background?: boolean }} [options]
 */
function startChild(name, command, args, { stopSignal = 'SIGTERM', background = false, ...options } = {}) {
  const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (background) lowerPriority(proc);
  const exited = new Promise((resolve) => {
    // Once stopping (this end, or the part's first end) no part's end is unexpected.
    const ended = (/** @type {string} */ reason) => {
      if (!stopping) {
        console.error(`\n${name} stopped unexpectedly (${reason}); stopping the local stack.`);
        void shutdown(1);
      }
      resolve(reason);
    };
    proc.on('exit', (code, signal) => ended(signal ? `signal ${signal}` : `exit code ${code}`));
    proc.on('error', (error) => ended(error.message));
  });
  createInterface({ input: proc.stdout }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
  createInterface({ input: proc.stderr }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  children.push({ proc, stopSignal, exited });
}

const lowerPriority = (/** @type {import('node:child_process').ChildProcess} */ proc) =>
  unlessGone(() => setPriority(proc.pid ?? 0, BACKGROUND_PRIORITY));

/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(children.map((child) => stopGroup(child.proc, child.exited, child.stopSignal, STOP_TIMEOUT_MS)));
  process.exit(code);
}

/** Never resolves: shutdown() ends the process. */
const forever = () => new Promise(() => {});

/** `promise`'s value; if it rejects, the stack stops with `what`, the reason and `hint`. */
const orFail = (/** @type {string} */ what, /** @type {Promise<any>} */ promise, hint = '') =>
  promise.catch((error) => {
    console.error(`\n${what}: ${error instanceof Error ? error.message : error}.${hint}`);
    void shutdown(1);
    return forever();
  });

/** Between the steps of the start-up: once something stopped the stack, start nothing more. */
const unlessStopping = () => (stopping ? forever() : Promise.resolve());

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return; // npm forwards Ctrl-C too: one stop is enough
    console.log('\nStopping the local stack...');
    void shutdown(0);
  });
}

// The API reference: redocly from the document the running API serves (GET /openapi.json), built when first asked
// for and again when that document changed: no start-up cost, never an old API. The API itself answers only JSON.
const PORT = 8090;
const API_REFERENCE_URL = `http://127.0.0.1:${PORT}/`;

/** Serves the page on every path (the page links its sections by path, e.g. /kiosk-devices). @param {string} apiUrl */
function serveApiReference(apiUrl) {
  const dir = join(cacheDir, 'api-reference');
  const documentFile = join(dir, 'openapi.json');
  const pageFile = join(dir, 'index.html');
  /** @type {{ document: string, page: Buffer } | undefined} The last build. */
  let built;
  let queue = /** @type {Promise<unknown>} */ (Promise.resolve());

  async function currentPage() {
    const response = await fetch(`${apiUrl}/openapi.json`);
    if (!response.ok) throw new Error(`${apiUrl}/openapi.json answered ${response.status}`);
    const document = await response.text();
    if (built?.document !== document) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(documentFile, document);
      const result = await buildReferencePage(documentFile, pageFile);
      if (result.status !== 0) throw new Error(`redocly build-docs failed:\n${result.stdout}${result.stderr}`);
      built = { document, page: readFileSync(pageFile) };
    }
    return built.page;
  }

  const server = createServer((req, res) => {
    // One build at a time: requests that arrive meanwhile get its result.
    const page = queue.then(currentPage);
    queue = page.catch(() => undefined);
    page.then(
      (body) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(body);
      },
      (error) => {
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`The API reference could not be built: ${error.message}\n`);
      },
    );
  });
  server.on('error', (error) => console.error(`The API reference page is not served: ${error.message}`));
  server.listen(PORT, '127.0.0.1');
}

// The local stack's Cloud Scheduler (the functions emulator runs no scheduled function): each one's handler through the
// operator CLI every 5 minutes, as `schedule: 'every 5 minutes'` of silentKioskSweep and effectsSweep in
// functions/src/index.ts (the daily users sweep too, so erasures show while the demo runs).
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** The scheduled functions: what each is called in the log, and the CLI command that runs its handler. */
const SCHEDULED_SWEEPS = [
  { name: 'silent sweep', command: 'alerts:sweep' },
  { name: 'effects sweep', command: 'effects:sweep' },
  // Hourly when deployed (pointsExpiry: the day's run, continued until done); here every 5 minutes, each run whole: a
  // run for a day changes nothing the first run of that day did not, and reads only users with points expiring soon.
  { name: 'expiry run', command: 'expiry:run' },
  { name: 'users sweep', command: 'users:sweep' },
];

const builds = {
  'The functions do not compile': () => functionsBuilt() || buildFunctions(),
  'The console does not build': buildConsole,
};
for (const [failure, build] of Object.entries(builds)) {
  try {
    build();
  } catch {
    console.error(`${failure} (see the messages above).`);
    process.exit(1);
  }
}

const [firebase, args, options] = localEmulators();
startChild('emulators', firebase, args, { ...options, stopSignal: 'SIGINT' });

// The emulator answers (404) before it has loaded the functions: wait for the health route itself.
const apiUp = waitForHttp(`${API}/`, STARTUP_TIMEOUT_MS, { ok: true });
await orFail('The API did not come up', apiUp, ' See the emulator output above.');
// From this script's launch to the API's first 200 (npm's own start-up, before it, is not in it).
const answeredMs = performance.now();
await unlessStopping();

// The first answer needs none of what follows: on two cores its start-up (CPU s: maildev 1.5, the seed 0.5 and its
// emulator work, the watcher's first pass 3.5) would delay the emulators' own. The reference page builds when opened.
serveApiReference(API);
const maildev = ['--smtp', MAIL.smtpPort, '--ip', '127.0.0.1', '--web', MAIL.webPort, '--web-ip', '127.0.0.1'];
startChild('maildev', join(repoRoot, 'node_modules', '.bin', 'maildev'), maildev, { background: true });
// `admin seed`'s report (what it made, lines to paste), which carries the demo data and the examples.
const seeding = runAdmin(LOCAL_PROJECT_ID, ['seed'], lowerPriority).then(({ status, stdout, stderr }) => {
  if (status !== 0) throw new Error(`exit code ${status}: ${stderr.trim()}`);
  if (!stdout.trim()) throw new Error('seeding printed no report');
  return stdout.trimEnd();
});
const seeded = orFail('Could not seed the demo data', seeding);
// Incremental (COMPILE_ARGS): on the code built above the watcher's first pass writes nothing, so the emulators do not
// reload; from then on an edit in functions/src is compiled (its errors shown with [tsc]) and reloads the functions.
startChild('tsc', TSC, [...COMPILE_ARGS, '--watch', '--preserveWatchOutput'], { cwd: functionsDir, background: true });
const seedReport = /** @type {string} */ (await seeded);
await orFail('The mail catcher did not come up', waitForHttp(MAIL_PAGE, STARTUP_TIMEOUT_MS));
await unlessStopping();
const oneLine = (/** @type {string} */ text) => text.trim().replace(/\s+/g, ' ');
// Each sweep one run at a time, each outcome one line.
for (const { name, command } of SCHEDULED_SWEEPS) {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    const { status, stdout, stderr } = await runAdmin(LOCAL_PROJECT_ID, [command]);
    running = false;
    const outcome = status ? `${name} failed (exit code ${status}): ${oneLine(stderr)}` : `${name}: ${oneLine(stdout)}`;
    console.log(`[sweep] ${outcome}`);
  };
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
// The stack's own addresses around the seed command's report.
const rule = '─'.repeat(78);
console.log(
  [
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
  ].join('\n'),
);
