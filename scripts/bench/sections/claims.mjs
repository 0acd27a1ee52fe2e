// @ts-check
// Claim codes (contract §18): a claim's p50 against a plain deposit's, c=1 and c=16, on the warm api instance. Each
// claim takes a code of its own, made beforehand by an anonymous deposit, and is sent by its user with their own ID token
// (no Auth backend call, as the app sends it); the deposits timed are for the same users, so both spread alike.
// Ratio = claim p50 ÷ deposit p50 (target ≤ 1.2).
import { summarize } from '../../lib/stats.mjs';
import { cannon, inRotation } from '../host.mjs';

/**
 * @param {{ url: string, data: import('../data.mjs').Data, concurrencies: number[], rounds: number, amount: (c: number) => number }} plan
 */
export async function measureClaims({ url, data, concurrencies, rounds, amount }) {
  const { kiosks, authUsers: users, tokens, runId } = data;
  /** A deposit at the n-th kiosk for `userId` (null: anonymous), under a key of its own. */
  const deposit = (/** @type {number} */ n, /** @type {string | null} */ userId) => {
    const { id, apiKey } = kiosks[n % kiosks.length];
    const headers = { 'x-api-key': apiKey, 'idempotency-key': `${runId}-claims-${n}` };
    const body = { kioskId: id, userId, plasticCount: 1 + (n % 5), metalCount: n % 3 };
    return { method: 'POST', path: '/kiosk/transaction', headers, body };
  };
  const rows = [];
  for (const c of concurrencies) {
    const total = rounds * amount(c) + c;
    /** @type {string[]} */
    const codes = [];
    const made = await cannon(url, {
      connections: 8,
      amount: total,
      build: (n) => deposit(n, null),
      onAnswer: (status, body) => status === 200 && codes.push(JSON.parse(body).transaction.claim.code),
    });
    if (codes.length < total) throw new Error(`anonymous deposits: ${made.failures[0]}`);
    let claims = 0;
    const claim = () => {
      const i = claims++;
      const [path, headers] = [
        `/user/${users[i % users.length]}/claims`,
        { authorization: `Bearer ${tokens[i % users.length]}` },
      ];
      return { method: 'POST', path, headers, body: { code: codes[i] } };
    };
    const plain = (/** @type {number} */ n) => deposit(n, users[n % users.length]);
    for (const build of [plain, claim]) await cannon(url, { connections: c, amount: c, build });
    const runs = await inRotation(rounds, [plain, claim], (build) =>
      cannon(url, { connections: c, amount: amount(c), build }),
    );
    const [deposits, claimed] = runs.map((loads) => ({
      p50: summarize(loads.flatMap((load) => load.latencies)).p50,
      failed: loads.flatMap((load) => load.failures).length,
    }));
    const ratio = claimed.p50 / deposits.p50;
    console.log(
      `  c=${c}: deposit p50 ${deposits.p50.toFixed(1)} ms, claim p50 ${claimed.p50.toFixed(1)} ms (${ratio.toFixed(2)}x)`,
    );
    rows.push({ c, depositP50: deposits.p50, claimP50: claimed.p50, ratio, failed: deposits.failed + claimed.failed });
  }
  return rows;
}
