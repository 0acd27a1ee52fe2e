// @ts-check
// The load test's kiosk requests outside autocannon, and the two phases made of them:
//   hot:     many concurrent awards to one user
//   retries: every request sent 2-5 times with one Idempotency-Key, partly concurrently
import { performance } from 'node:perf_hooks';
import { submitAsKiosk } from '../../kiosk-simulator/client.ts';

export const randomInt = (/** @type {number} */ max) => Math.floor(Math.random() * max);

/**
 * @typedef {import('./books.mjs').Ledger} Ledger
 * @typedef {{ id: string, apiKey: string }} Kiosk
 * @typedef {ReturnType<typeof transactionBody>} TransactionBody
 */

/**
 * @param {string} kioskId
 * @param {string} userId
 */
export function transactionBody(kioskId, userId) {
  const plasticCount = randomInt(6);
  const metalCount = plasticCount === 0 ? 1 + randomInt(5) : randomInt(6);
  return { kioskId, userId, plasticCount, metalCount };
}

/**
 * One transaction as a kiosk sends it (kiosk-simulator/client.ts), every response
 * recorded in `ledger`; the final one is returned.
 * @param {string} api
 * @param {Ledger} ledger
 * @param {string} apiKey
 * @param {TransactionBody} body
 * @param {string} idempotencyKey
 */
export const submitRecorded = (api, ledger, apiKey, body, idempotencyKey) =>
  submitAsKiosk(api, { apiKey, body, idempotencyKey }, undefined, (status, text, ms) => {
    ledger.status(status, text);
    ledger.latencies.push(ms);
  });

/**
 * @param {{ api: string, kiosks: Kiosk[], hotUser: string, requests: number }} plan
 * @param {Ledger} ledger
 */
export async function hotPhase({ api, kiosks, hotUser, requests }, ledger) {
  const started = performance.now();
  const responses = await Promise.all(
    Array.from({ length: requests }, (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      return submitRecorded(api, ledger, kiosk.apiKey, transactionBody(kiosk.id, hotUser), `hot-${process.pid}-${i}`);
    }),
  );
  for (const response of responses) if (response.status === 200) ledger.award(response.body.transaction);
  const awarded = responses
    .filter((r) => r.status === 200)
    .reduce((sum, r) => sum + r.body.transaction.pointsEarned, 0);
  return {
    requests: requests,
    seconds: (performance.now() - started) / 1000,
    awarded,
    failures: responses.filter((r) => r.status !== 200).length,
  };
}

/**
 * @param {{ api: string, kiosks: Kiosk[], users: string[], requests: number }} plan
 * @param {Ledger} ledger
 */
export async function retriesPhase({ api, kiosks, users, requests }, ledger) {
  /** @type {Map<string, Set<string>>} */
  const transactionIdsByKey = new Map();
  let sent = 0;
  const logical = Array.from({ length: requests }, (_, i) => {
    const kiosk = kiosks[i % kiosks.length];
    return {
      kiosk,
      key: `retry-${Date.now()}-${i}`,
      body: transactionBody(kiosk.id, users[randomInt(users.length)]),
      copies: 2 + randomInt(4),
    };
  });
  /**
   * @param {string} key
   * @param {{ status: number, body: any }} response
   */
  const record = (key, response) => {
    sent += 1;
    if (response.status !== 200) return;
    const ids = transactionIdsByKey.get(key) ?? new Set();
    ledger.award(response.body.transaction);
    ids.add(response.body.transaction.id);
    transactionIdsByKey.set(key, ids);
  };
  await Promise.all(
    logical.map(async ({ kiosk, key, body, copies }) => {
      const concurrent = 1 + randomInt(copies);
      const first = await Promise.all(
        Array.from({ length: concurrent }, () => submitRecorded(api, ledger, kiosk.apiKey, body, key)),
      );
      first.forEach((response) => record(key, response));
      for (let i = concurrent; i < copies; i++) record(key, await submitRecorded(api, ledger, kiosk.apiKey, body, key));
    }),
  );
  const doubled = [...transactionIdsByKey.values()].filter((ids) => ids.size > 1).length;
  return { logical: requests, sent, answered: transactionIdsByKey.size, doubled };
}
