// @ts-check
// What the sections that time one request as the data grows share (4b: kiosks near a
// point as the fleet grows, 4c: a page of a user's history as it grows): seeding in
// batched writes, a few batches at once, and timing the sizes in turn, round after
// round, so that whatever else the machine does hits every size alike.
import { summarize } from '../lib/stats.mjs';
import { requireFn } from './endpoints.mjs';
import { loop } from './measure.mjs';

const WRITES_PER_BATCH = 500;
const BATCHES_AT_ONCE = 4;

/**
 * firebase-admin's Firestore for project `projectId` (an app of its own, named after
 * it), in the same emulator.
 * @param {string} projectId
 * @returns {import('firebase-admin/firestore').Firestore}
 */
export function projectFirestore(projectId) {
  const { getApps, initializeApp } = requireFn('firebase-admin/app');
  const { getFirestore } = requireFn('firebase-admin/firestore');
  const app = getApps().find((/** @type {{ name: string }} */ existing) => existing.name === projectId);
  return getFirestore(app ?? initializeApp({ projectId }, projectId));
}

/**
 * Sets every [ref, data] of `docs` in batches of 500, a few batches at a time.
 * @param {import('firebase-admin/firestore').Firestore} firestore
 * @param {[import('firebase-admin/firestore').DocumentReference, Record<string, unknown>][]} docs
 */
export async function writeInBatches(firestore, docs) {
  const chunks = [];
  for (let i = 0; i < docs.length; i += WRITES_PER_BATCH) chunks.push(docs.slice(i, i + WRITES_PER_BATCH));
  for (let i = 0; i < chunks.length; i += BATCHES_AT_ONCE) {
    await Promise.all(
      chunks.slice(i, i + BATCHES_AT_ONCE).map((chunk) => {
        const batch = firestore.batch();
        for (const [ref, data] of chunk) batch.set(ref, data);
        return batch.commit();
      }),
    );
  }
}

/** @typedef {() => Promise<{ ok: boolean, detail?: string }>} Timed one size's request, sent */

/**
 * Times each size's request sequentially (c=1): `warmup` requests of each, then
 * `rounds` rounds of `requests` each, the order of the sizes rotating from round to
 * round. Percentiles are over all of a size's requests, in the order of `sizes`.
 * @param {Timed[]} sizes
 * @param {{ warmup: number, rounds: number, requests: number }} plan
 */
export async function measureInTurn(sizes, { warmup, rounds, requests }) {
  for (const size of sizes) await loop(1, warmup, size);
  /** @type {{ latencies: number[], failed: number }[]} */
  const measured = sizes.map(() => ({ latencies: [], failed: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sizes.length; k++) {
      const i = (k + round) % sizes.length;
      const result = await loop(1, requests, sizes[i]);
      measured[i].latencies.push(...result.latencies);
      measured[i].failed += result.failed;
    }
  }
  return measured.map(({ latencies, failed }) => ({ failed, ...summarize(latencies) }));
}
