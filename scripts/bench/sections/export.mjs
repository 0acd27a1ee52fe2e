// @ts-check
// A person's data (§15, docs/performance.md) as the history grows: an instance per size, warmed by one export.
import { readFileSync } from 'node:fs';
import { idTokenFor } from '../../../functions/test/harness/auth.ts';
import { db, fleetUserWithHistory, writeAll } from '../../lib/fleet.mjs';
import { firstAnswer, functionEnv, inSequence, inTurn, withInstances } from '../host.mjs';

/** The instance's resident memory now and its peak so far (MiB), from /proc/<pid>/status. */
function memoryOf(/** @type {import('../host.mjs').Instance} */ instance) {
  const status = readFileSync(`/proc/${instance.child.pid}/status`, 'utf8');
  const mib = (/** @type {string} */ field) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMiB: mib('VmRSS'), peakMiB: mib('VmHWM') };
}

/** @param {{ env: Record<string, string>, runId: string, kioskId: string, entries: number[], rounds: number }} plan */
export async function measureExport({ env, runId, kioskId, entries, rounds }) {
  const users = await inSequence(entries, async (count) => {
    const userId = `bench-export-${runId}-${count}`;
    const history = { userId, name: `Export of ${count}`, entries: count, kioskId, transactions: true };
    await writeAll(fleetUserWithHistory(db(), history));
    const headers = { authorization: `Bearer ${await idTokenFor(userId)}` };
    return { entries: count, request: { method: 'GET', path: `/user/${userId}/export`, headers } };
  });
  const options = users.map(() => ({ env: functionEnv(env) }));
  return withInstances(options, async (instances) => {
    for (const instance of instances) await firstAnswer(instance, users[0].request);
    const warm = instances.map(memoryOf);
    // One export of each size checked whole before the timing: as many entries and transactions as seeded.
    const bytes = await inSequence(users, async ({ entries: count, request }, i) => {
      const response = await fetch(`${instances[i].url}${request.path}`, { headers: request.headers });
      const body = await response.text();
      const { ledger, transactions } = JSON.parse(body);
      if (response.status !== 200 || ledger.length !== count || transactions.length !== count)
        throw new Error(`the export of ${count} entries answered ${response.status}`);
      return Buffer.byteLength(body);
    });
    const targets = users.map(({ request }, i) => ({ url: instances[i].url, request }));
    const measured = await inTurn(targets, { rounds, amount: 1, warmUp: 0 });
    return users.map((user, i) => ({
      entries: user.entries,
      bytes: bytes[i],
      lastByteMs: measured[i].p50,
      failed: measured[i].failed,
      warmRssMib: warm[i].rssMiB,
      peakRssMib: memoryOf(instances[i]).peakMiB,
    }));
  });
}
