// @ts-check
// Trust (contract §17): an award with every check on (limits so high nothing is held, yet each judged) against every
// check off, rounds alternating on one warm instance: config/risk is read with every award, so a write switches them.
import { db } from '../data.mjs';
import { versus } from '../host.mjs';

const OFF = { kioskItemsPerMinute: null, userItemsPerDay: null, travelKmh: null };
const ON = { kioskItemsPerMinute: 1_000_000, userItemsPerDay: 1_000_000, travelKmh: 1_000_000 };

/**
 * @param {{ url: string, endpoint: import('../data.mjs').Endpoint, concurrencies: number[], rounds: number, amount: (c: number) => number }} plan
 */
export async function measureTrust({ url, endpoint, ...plan }) {
  const risk = db().doc('config/risk');
  const checks = (/** @type {typeof ON | typeof OFF} */ limits) => ({
    build: endpoint.request,
    switchTo: () => risk.set(limits),
  });
  const rows = await versus(url, plan, { offP50: checks(OFF), onP50: checks(ON) });
  await risk.set(OFF);
  return rows;
}
