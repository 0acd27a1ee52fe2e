// @ts-check
// The start row: launch -> first 200 of a warm `npm start` against a bare `firebase emulators:start`, alternating, each
// in a process group of its own ended as Ctrl-C ends it; before the bench's own emulators.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { EMULATORS, HOSTS, LOCAL_PROJECT_ID, apiUrl, emulatorEnv } from '../lib/emulators.mjs';
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
 * @type {(command: string, args: string[], env: NodeJS.ProcessEnv) => Promise<number>}
 */
const launch = async (command, args, env) => {
  await portsClosed();
  const launched = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, env, detached: true, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const answered = async () => {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited before answering`);
      return (await fetch(`${apiUrl(LOCAL_PROJECT_ID)}/`).catch(() => undefined))?.ok || undefined;
    };
    await waitFor(`${command} ${args.join(' ')} to answer`, answered, 180_000, undefined, 100);
    return (performance.now() - launched) / 1000;
  } finally {
    // Ctrl-C to the whole group, as a terminal sends it; SIGKILL if it has not ended within a minute.
    const signal = (/** @type {NodeJS.Signals} */ name) =>
      child.exitCode === null && process.kill(-(/** @type {number} */ (child.pid)), name);
    signal('SIGINT');
    if (!(await Promise.race([exited.then(() => true), sleep(60_000).then(() => false)]))) signal('SIGKILL');
    await portsClosed();
  }
};

/** @param {number} runs launches of each */
export async function measureStart(runs) {
  const bin = join(repoRoot, 'node_modules', '.bin');
  const bareEnv = { ...process.env, ...emulatorEnv(), PATH: `${bin}:${process.env.PATH}` };
  const bareArgs = ['emulators:start', '--only', EMULATORS, '--project', LOCAL_PROJECT_ID];
  const [bare, start] = /** @type {number[][]} */ ([[], []]);
  for (let run = 0; run < runs; run++) {
    bare.push(await launch(join(bin, 'firebase'), bareArgs, bareEnv));
    start.push(await launch('npm', ['run', '--silent', 'stack:start'], process.env));
    console.log(`  start ${run + 1}/${runs}: bare ${bare[run].toFixed(1)} s, npm start ${start[run].toFixed(1)} s`);
  }
  return { bareS: median(bare), startS: median(start), ratio: median(start) / median(bare), bare, start };
}
