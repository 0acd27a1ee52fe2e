// @ts-check
// A person's data given back (contract §15) as the history grows: GET /user/{id}/export
// of a user with each of `entries` ledger entries and their transactions, c=1, timed to
// its last byte; and the peak resident memory of the instance that served it (VmHWM of
// its process, from /proc). Each size has an instance of its own, warmed by one export
// of the shortest history; the sizes are measured in turn, round after round.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { idTokenFor } from '../../../functions/test/harness/auth.ts';
import { fleetUserWithHistory, writeAll } from '../../lib/fleet.mjs';
import { median } from '../../lib/stats.mjs';
import { db } from '../data.mjs';
import { firstAnswer, functionEnv, startFunction, stopFunction } from '../host.mjs';

/**
 * The instance's resident memory now and its peak so far (MiB), from /proc/<pid>/status.
 * @param {import('../host.mjs').Instance} instance
 */
function memoryOf(instance) {
  const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  const mib = (/** @type {string} */ field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
}

/**
 * @param {{ env: Record<string, string>, runId: string, kioskId: string, entries: number[], rounds: number }} plan
 */
export async function measureExport({ env, runId, kioskId, entries, rounds }) {
  const users = [];
  for (const count of entries) {
    const userId = `bench-export-${runId}-${count}`;
    const history = { userId, name: `Export of ${count}`, entries: count, kioskId, transactions: true };
    await writeAll(fleetUserWithHistory(db(), history));
    const headers = { authorization: `Bearer ${await idTokenFor(userId)}` };
    users.push({ entries: count, path: `/user/${userId}/export`, headers, times: /** @type {number[]} */ ([]) });
  }
  /** @type {import('../host.mjs').Instance[]} */
  const instances = [];
  try {
    for (const _ of users) instances.push(await startFunction({ env: functionEnv(env) }));
    for (const instance of instances) await firstAnswer(instance, users[0].path, users[0].headers);
    const warm = instances.map(memoryOf);
    const bytes = users.map(() => 0);
    for (let round = 0; round < rounds; round++)
      for (let k = 0; k < users.length; k++) {
        const i = (k + round) % users.length;
        const started = performance.now();
        const response = await fetch(`${instances[i].url}${users[i].path}`, { headers: users[i].headers });
        const body = await response.text();
        users[i].times.push(performance.now() - started);
        const { ledger, transactions } = JSON.parse(body);
        if (response.status !== 200 || ledger.length !== users[i].entries || transactions.length !== users[i].entries)
          throw new Error(`the export of ${users[i].entries} entries answered ${response.status}`);
        bytes[i] = Buffer.byteLength(body);
      }
    return users.map((user, i) => {
      const served = memoryOf(instances[i]);
      console.log(
        `  ${user.entries} entries: ${median(user.times).toFixed(0)} ms, peak RSS ${served.peakMiB.toFixed(0)} MiB (warm ${warm[i].rssMiB.toFixed(0)} MiB)`,
      );
      return {
        entries: user.entries,
        bytes: bytes[i],
        ms: median(user.times),
        runs: user.times,
        warm: warm[i],
        served,
      };
    });
  } finally {
    for (const instance of instances) await stopFunction(instance);
  }
}
