// The start row: launch -> first 200 of a warm `npm start` against a bare `firebase emulators:start`, alternating, each
// in a process group of its own ended as Ctrl-C ends it; before the bench's own emulators.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { HOSTS, LOCAL_PROJECT_ID, apiUrl, localEmulators, stopGroup, waitForHttp } from '../lib/emulators.mjs';
import { median } from '../lib/stats.mjs';
import { repoRoot } from '../lib/paths.mjs';

/** The emulators' ports and those npm start adds (mail catcher, API reference, hub logging, websocket). */
const PORTS = [...Object.values(HOSTS).map((host) => Number(host.split(':')[1])), 4500, 9150, 1025, 1080, 8090];
const isOpen = async (/** @type {number} */ port) => {
  const socket = connect(port, '127.0.0.1');
  const connected = await once(socket, 'connect').catch(() => undefined);
  socket.destroy();
  return Boolean(connected);
};
const openPorts = async () => (await Promise.all(PORTS.map(isOpen))).flatMap((open, i) => (open ? [PORTS[i]] : []));
const noneOpen = async () => ((await openPorts()).length ? undefined : true);
const stillOpen = async () => `ports ${(await openPorts()).join(', ')} still open`;
const portsClosed = () => waitFor('every port closed', noneOpen, 30_000, stillOpen, 250);

/**
 * One launch: seconds to the first 200 of GET {API}/, then Ctrl-C and wait until it is gone.
 * @type {(command: string, args: readonly string[], options: import('node:child_process').SpawnOptions) => Promise<number>}
 */
const launch = async (command, args, options) => {
  await portsClosed();
  const launched = performance.now();
  const child = spawn(command, args, { ...options, detached: true, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitForHttp(`${apiUrl(LOCAL_PROJECT_ID)}/`, 180_000, { ok: true, intervalMs: 100, child });
    return (performance.now() - launched) / 1000;
  } finally {
    // SIGKILL if it has not ended within a minute.
    await stopGroup(child, exited, 'SIGINT', 60_000);
    await portsClosed();
  }
};

/** @param {number} runs launches of each */
export async function measureStart(runs) {
  const [bare, start] = /** @type {number[][]} */ ([[], []]);
  for (let run = 0; run < runs; run++) {
    bare.push(await launch(...localEmulators()));
    start.push(await launch('npm', ['run', '--silent', 'stack:start'], { cwd: repoRoot }));
    console.log(`  start ${run + 1}/${runs}: bare ${bare[run].toFixed(1)} s, npm start ${start[run].toFixed(1)} s`);
  }
  return { bareS: median(bare), startS: median(start), ratio: median(start) / median(bare), bare, start };
}
