// @ts-check
// The end of a load run: the triggers drain, then the effects sweep (docs/operations.md, Reliability and load).
import { waitFor } from '../../functions/test/harness/wait.ts';
import { db } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { runAdmin } from '../lib/emulators.mjs';
import { sum } from '../lib/stats.mjs';
import { countOf } from './books.mjs';

const { EFFECTS_PENDING } = requireFunctions('./lib/data/pendingEffects.js');

/** Every kind whose trigger tells, counts or delivers, and users: the sweep finishes an erasure. */
const SWEPT = ['transactions', 'redemptions', 'alerts', 'expiryReminders', 'webhookEvents', 'voucherUses', 'users'];

export async function pendingEffects() {
  const count = (/** @type {string} */ name) => countOf(db().collection(name).where(EFFECTS_PENDING, '==', true));
  return Object.fromEntries(await Promise.all(SWEPT.map(async (name) => [name, await count(name)])));
}

/** Until none is pending, or their number stalls for `stallMs` (what is left then, no trigger will finish). */
export async function waitForTriggersToSettle(stallMs = 60_000, timeoutMs = 600_000) {
  let fewest = Infinity;
  let fellAt = Date.now();
  let last = {};
  return waitFor(
    `the triggers to finish or stall for ${stallMs / 1000} s`,
    async () => {
      last = await pendingEffects();
      const total = sum(Object.values(last));
      if (total < fewest) [fewest, fellAt] = [total, Date.now()];
      return total === 0 || Date.now() - fellAt > stallMs ? last : undefined;
    },
    timeoutMs,
    async () => `still pending: ${JSON.stringify(last)}`,
    1_000,
  );
}

/** `admin effects:sweep --min-age 0`, racing any trigger still at work. @param {string} projectId */
export async function sweepEffects(projectId) {
  const run = await runAdmin(projectId, ['effects:sweep', '--min-age', '0']);
  if (run.status !== 0) throw new Error(`effects:sweep failed (exit ${run.status}): ${run.stderr.trim()}`);
  return /** @type {Record<string, { pending: number, completed: number, failed: number }>} */ (JSON.parse(run.stdout));
}
