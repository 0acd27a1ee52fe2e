// @ts-check
// The load test's kiosk requests outside autocannon, and the two phases made of them:
//   hot:     many concurrent awards to one user
//   retries: every request sent 2-5 times with one Idempotency-Key, partly concurrently
import { performance } from 'node:perf_hooks';
import { submitAsKiosk } from '../../kiosk-simulator/client.ts';
import { randomItems } from '../../kiosk-simulator/simulator.ts';
import { AnswersByKey, randomInt } from './books.mjs';

/**
 * @typedef {import('./books.mjs').Ledger} Ledger
 * @typedef {{ id: string, apiKey: string }} Kiosk
 * @typedef {ReturnType<typeof transactionBody>} TransactionBody
 */

/**
 * @param {string} kioskId
 * @param {string} userId
 */
export const transactionBody = (kioskId, userId) => ({ kioskId, userId, ...randomItems() });

/**
 * One transaction as a kiosk sends it (kiosk-simulator/client.ts), every response
 * recorded in `ledger`, an award counted; the final answer is returned.
 * @param {string} api
 * @param {Ledger} ledger
 * @param {string} apiKey
 * @param {TransactionBody} body
 * @param {string} idempotencyKey
 */
export async function submitRecorded(api, ledger, apiKey, body, idempotencyKey) {
  const answer = await submitAsKiosk(api, { apiKey, body, idempotencyKey }, undefined, ledger.response);
  if (answer.status === 200) ledger.award(answer.body.transaction);
  return answer;
}

/**
 * @param {{ api: string, kiosks: Kiosk[], hotUser: string, requests: number }} plan
 * @param {Ledger} ledger
 */
export async function hotPhase({ api, kiosks, hotUser, requests }, ledger) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: requests }, (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      return submitRecorded(api, ledger, kiosk.apiKey, transactionBody(kiosk.id, hotUser), `hot-${process.pid}-${i}`);
    }),
  );
  const awarded = answers.filter((answer) => answer.status === 200);
  return {
    requests,
    notAwarded: requests - awarded.length,
    points: awarded.reduce((sum, answer) => sum + answer.body.transaction.pointsEarned, 0),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * @param {{ api: string, kiosks: Kiosk[], users: string[], requests: number }} plan
 * @param {Ledger} ledger
 */
export async function retriesPhase({ api, kiosks, users, requests }, ledger) {
  const byKey = new AnswersByKey();
  let sent = 0;
  /**
   * @param {Kiosk} kiosk
   * @param {TransactionBody} body
   * @param {string} key
   */
  const send = async (kiosk, body, key) => {
    sent += 1;
    const answer = await submitRecorded(api, ledger, kiosk.apiKey, body, key);
    if (answer.status === 200) byKey.add(key, answer.body.transaction.id);
  };
  await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      const key = `retry-${Date.now()}-${i}`;
      const body = transactionBody(kiosk.id, users[randomInt(users.length)]);
      const copies = 2 + randomInt(4);
      const concurrent = 1 + randomInt(copies);
      await Promise.all(Array.from({ length: concurrent }, () => send(kiosk, body, key)));
      for (let copy = concurrent; copy < copies; copy++) await send(kiosk, body, key);
    }),
  );
  return { requests, sent, awarded: byKey.answered, doubled: byKey.doubled };
}
