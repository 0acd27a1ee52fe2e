// @ts-check
// The stand-in servers of the bench, all started here:
//   - what a deployed function gets from its surroundings: an SMTP server (the OTP
//     endpoint sends mail) and the platform's metadata server (an access token);
//   - the floors each endpoint is measured against: the floor function (floor.js,
//     served by functions-framework like the api: cold for section 1, warm as the
//     "same-host floor" of sections 2 and 2c), and the floor runner
//     (floor-runner.mjs, the Firestore work alone in a process of its own, section 2).
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MailCatcher } from '../../functions/test/harness/mail-catcher.ts';
import { functionsDir } from '../lib/paths.mjs';
import { functionEnv, setPlatformEnv } from './host.mjs';
import { takeIds } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * @typedef {object} StandIns
 * @property {number} mailPort the SMTP server's port
 * @property {string} floorDir the floor function's source directory
 * @property {Record<string, string>} sameHostEnv the environment of a same-host floor instance
 * @property {() => Promise<void>} close
 */

/**
 * @typedef {Omit<import('./endpoints.mjs').BenchContext, 'mailFloor'>} FloorContext
 *   what a floor process needs of the bench's context (it is sent as JSON)
 */

/**
 * Starts the SMTP and metadata servers (every function instance started afterwards
 * is pointed at the metadata server) and prepares the floor function for `ctx` (the
 * seeded data, see seed.mjs).
 * @param {FloorContext} ctx
 * @returns {Promise<StandIns>}
 */
export async function startStandIns(ctx) {
  const mail = new MailCatcher({ keep: false });
  const mailPort = await mail.start();
  const metadata = await startMetadataServer();
  setPlatformEnv({ GCE_METADATA_HOST: metadata.host });
  const floorDir = prepareFloorSource();
  // What the same-host floor needs to build each endpoint's floor operation.
  const contextFile = join(floorDir, 'context.json');
  writeFileSync(contextFile, JSON.stringify({ ctx: floorContext(ctx), mailPort }));
  const sameHostEnv = functionEnv({
    BENCH_FLOOR_CONTEXT: contextFile,
    BENCH_ENDPOINTS_MODULE: pathToFileURL(join(here, 'endpoints.mjs')).href,
  });
  return {
    mailPort,
    floorDir,
    sameHostEnv,
    async close() {
      await mail.stop();
      await metadata.close();
      rmSync(floorDir, { recursive: true, force: true });
    },
  };
}

/**
 * The part of the bench's context a floor process needs (it can be sent as JSON).
 * @param {FloorContext} ctx
 * @returns {FloorContext}
 */
const floorContext = ({ kiosks, users, authUsers, tokens, adminToken, revoked, runId }) => ({
  kiosks,
  users,
  authUsers,
  tokens,
  adminToken,
  revoked,
  runId,
});

/**
 * A stand-in for the platform's metadata server, which hands a deployed function its
 * access token. Only the REST transport (FIRESTORE_PREFER_REST) asks for one on the
 * emulator; gRPC to the emulator uses no credentials. The token is the emulator's
 * admin token "owner". Without this, REST cannot be measured here at all.
 */
async function startMetadataServer() {
  const server = http.createServer((req, res) => {
    res.setHeader('Metadata-Flavor', 'Google');
    const path = (req.url ?? '').split('?')[0];
    if (path.endsWith('/service-accounts/default/token')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'owner', expires_in: 3600, token_type: 'Bearer' }));
    } else if (path.endsWith('/project/project-id')) res.end(process.env.GCLOUD_PROJECT);
    else if (path.endsWith('/universe/universe-domain')) res.end('googleapis.com');
    else if (path.endsWith('/service-accounts/default/email'))
      res.end(`bench@${process.env.GCLOUD_PROJECT}.iam.gserviceaccount.com`);
    else if (path === '/computeMetadata/v1/instance' || path === '/computeMetadata/v1/instance/') res.end('{}');
    else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { host: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A temp directory holding the floor function, resolving its packages from functions/node_modules. */
function prepareFloorSource() {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-bench-floor-'));
  copyFileSync(join(here, 'floor.js'), join(dir, 'index.js'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-floor', private: true, main: 'index.js' }));
  symlinkSync(join(functionsDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * The path that has a same-host floor instance run endpoint `name`'s floor operation
 * (request `g` of worker `w`).
 * @param {string} name
 * @param {number} w
 * @param {number} g
 */
export const floorPath = (name, w, g) => `/floor?name=${encodeURIComponent(name)}&w=${w}&g=${g}`;

/** A path that answers 200 once a same-host floor instance is up. */
export const floorReadyPath = () => floorPath('GET /kiosk/{id}', 0, takeIds(1));

/**
 * @typedef {{ latencies: number[], failed: number, failures: string[] }} FloorResult
 * @typedef {{ type: 'ready' } | ({ type: 'result', id: number } & FloorResult)} FloorMessage
 */

/**
 * Starts the floor runner (floor-runner.mjs): the endpoints' Firestore work, timed in a process of its own.
 * @param {FloorContext} ctx
 * @param {number} mailPort
 */
export async function startFloorRunner(ctx, mailPort) {
  const child = fork(join(here, 'floor-runner.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  /** @type {Map<number, (result: FloorResult) => void>} */
  const pending = new Map();
  /** @type {() => void} */
  let ready = () => {};
  const isReady = new Promise((resolve) => (ready = () => resolve(undefined)));
  child.on('message', (/** @type {FloorMessage} */ message) => {
    if (message.type === 'ready') ready();
    else if (message.type === 'result') {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  child.on('exit', (code) => {
    for (const resolve of pending.values())
      resolve({ latencies: [], failed: 1, failures: [`floor runner exited (${code})`] });
  });
  child.send({ type: 'init', ctx: floorContext(ctx), mailPort });
  await isReady;
  let nextId = 0;
  return {
    /**
     * Like loop() of measure.mjs, for the floor of endpoint `name`.
     * @param {string} name
     * @param {number} concurrency
     * @param {number} total
     * @returns {Promise<FloorResult>}
     */
    run(name, concurrency, total) {
      const base = takeIds(total);
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ type: 'run', id, name, concurrency, total, base });
      });
    },
    pid: /** @type {number} */ (child.pid),
    stop: () => child.kill(),
  };
}
