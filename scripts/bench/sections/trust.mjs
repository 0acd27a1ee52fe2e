// @ts-check
// Trust (contract §17): what the limits cost an award. POST /kiosk/transaction with every check on (limits so high that
// nothing is held, yet each is judged: the kiosk's window read and written, the user's items, the previous deposit's
// query) against every check off, at c=1 and c=16, rounds alternating on one warm instance: config/risk is read with
// every award, so a write switches them. Target: p50 on ≤ 1.2× p50 off.
import { summarize } from '../../lib/stats.mjs';
import { db } from '../data.mjs';
import { cannon } from '../host.mjs';

const OFF = { kioskItemsPerMinute: null, userItemsPerDay: null, travelKmh: null };
const ON = { kioskItemsPerMinute: 1_000_000, userItemsPerDay: 1_000_000, travelKmh: 1_000_000 };

/**
 * @param {{ url: string, endpoint: import('../data.mjs').Endpoint, concurrencies: number[], rounds: number, amount: (c: number) => number }} plan
 */
export async function measureTrust({ url, endpoint, concurrencies, rounds, amount }) {
  const risk = db().doc('config/risk');
  const rows = [];
  for (const c of concurrencies) {
    /** @type {Record<'off' | 'on', import('../host.mjs').Load[]>} */
    const runs = { off: [], on: [] };
    for (let round = 0; round < 2 * rounds; round++) {
      const checks = round % 2 === 0 ? 'off' : 'on';
      await risk.set(checks === 'on' ? ON : OFF);
      if (round < 2) await cannon(url, { connections: c, amount: 2 * c, build: endpoint.request });
      runs[checks].push(await cannon(url, { connections: c, amount: amount(c), build: endpoint.request }));
    }
    const [off, on] = [runs.off, runs.on].map((each) => ({
      ...summarize(each.flatMap((run) => run.latencies)),
      failed: each.flatMap((run) => run.failures).length,
    }));
    console.log(`  c=${c}: p50 ${on.p50.toFixed(1)} ms with every check, ${off.p50.toFixed(1)} ms without`);
    rows.push({ c, offP50: off.p50, onP50: on.p50, ratio: on.p50 / off.p50, failed: off.failed + on.failed });
  }
  await risk.set(OFF);
  return rows;
}
