// @ts-check
// Claim codes (contract §18, docs/claims.md): each claim is sent by its user with their own ID token (no Auth backend
// call, as the app sends it); the deposits timed are for the same users, so both spread alike.
import { sum } from '../../lib/stats.mjs';
import { cannon, versus } from '../host.mjs';

/**
 * @param {{ url: string, data: import('../data.mjs').Data, concurrencies: number[], rounds: number, amount: (c: number) => number }} plan
 */
export async function measureClaims({ url, data, ...plan }) {
  const { kiosks, authUsers: users, tokens, runId } = data;
  const deposit = (/** @type {number} */ n, /** @type {string | null} */ userId) => {
    const { id, apiKey } = kiosks[n % kiosks.length];
    const headers = { 'x-api-key': apiKey, 'idempotency-key': `${runId}-claims-${n}` };
    const body = { kioskId: id, userId, plasticCount: 1 + (n % 5), metalCount: n % 3 };
    return { method: 'POST', path: '/kiosk/transaction', headers, body };
  };
  // A code for every claim of every concurrency: its warm-up of 2c and its rounds.
  const total = sum(plan.concurrencies.map((c) => plan.rounds * plan.amount(c) + 2 * c));
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
    const headers = { authorization: `Bearer ${tokens[i % users.length]}` };
    return { method: 'POST', path: `/user/${users[i % users.length]}/claims`, headers, body: { code: codes[i] } };
  };
  const plain = (/** @type {number} */ n) => deposit(n, users[n % users.length]);
  return versus(url, plan, { depositP50: { build: plain }, claimP50: { build: claim } });
}
