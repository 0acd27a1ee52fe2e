// The requests outside autocannon (answers recorded in the ledger); the hot and retries phases (docs/operations.md).
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { KIOSK_RETRIES, postWithRetries, submitAsKiosk } from '../../kiosk-simulator/client.ts';
import { randomItems } from '../../kiosk-simulator/simulator.ts';
import { sum } from '../lib/stats.mjs';
import { AnswersByKey, randomInt } from './books.mjs';

/** @typedef {import('./run.mjs').Run} Run */

/**
 * A phase of the load run (run.mjs): `setup` before any phase of its step works, `intro` told (`{size}`: the run's);
 * `work` timed (`done`: what the phases before it returned), its figures (its `figures` or all it returns) reported;
 * `books`, the run drained, checks it. @template R
 * @typedef {{ intro?: string, setup?: (run: Run) => Promise<unknown>, work?: (run: Run, done: any) => Promise<R>,
 *   books?: (run: Run, result: R, end: { transactions: any[], done: any }) => Promise<object> }} Phase
 */
/** @template R @param {string} name @param {Phase<R>} described @returns {Phase<R> & { name: string }} */
export const phase = (name, described) => ({ name, ...described });

/** @param {string} kioskId @param {string | null} userId null: a deposit without a user (claims.mjs) */
export const transactionBody = (kioskId, userId) => ({ kioskId, userId, ...randomItems() });

/**
 * @param {Run} run @param {string} apiKey @param {ReturnType<typeof transactionBody>} body @param {string} idempotencyKey
 */
export async function submitRecorded({ api, ledger }, apiKey, body, idempotencyKey) {
  const answer = await submitAsKiosk(api, { apiKey, body, idempotencyKey }, undefined, ledger.response);
  if (answer.status === 200) ledger.award(answer.body.transaction);
  return answer;
}

/** @param {Run} run @param {string} path @param {Record<string, string>} headers @param {unknown} body */
export const post = ({ api, ledger }, path, headers, body) =>
  postWithRetries(api, path, { headers, body }, KIOSK_RETRIES, { onResponse: ledger.response });

export async function headersOf(/** @type {string[]} */ ids) {
  const headers = /** @type {Map<string, Record<string, string>>} */ (new Map());
  for (const id of ids) headers.set(id, { authorization: `Bearer ${await idTokenFor(id)}` });
  return headers;
}

/**
 * The same request `times` times, `atOnce` at once, the rest in turn (a client whose answers were lost): every answer.
 * @template T @param {() => Promise<T>} send @param {number} times
 */
export async function sendBlindly(send, times, atOnce = Math.min(times, 2)) {
  const answers = await Promise.all(Array.from({ length: atOnce }, send));
  for (let i = atOnce; i < times; i++) answers.push(await send());
  return answers;
}

/** @param {({ status: number, body: any } | undefined)[]} answers @param {Record<string, number>} [refused] */
export function countRefusals(answers, refused = {}) {
  for (const answer of answers) {
    if (!answer || answer.status < 400) continue;
    const name = `${answer.status} ${answer.body?.code ?? 'no code'}`;
    refused[name] = (refused[name] ?? 0) + 1;
  }
  return refused;
}

/** @param {Run} run */
async function hotPhase(run) {
  const { kiosks, hotUser, options } = run;
  const answers = await Promise.all(
    Array.from({ length: options.hot }, (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      return submitRecorded(run, kiosk.apiKey, transactionBody(kiosk.id, hotUser), `hot-${process.pid}-${i}`);
    }),
  );
  const awarded = answers.filter((answer) => answer.status === 200);
  return {
    requests: options.hot,
    notAwarded: options.hot - awarded.length,
    points: sum(awarded.map((answer) => answer.body.transaction.pointsEarned)),
  };
}

/** @param {Run} run */
async function retriesPhase(run) {
  const { kiosks, users, options } = run;
  const byKey = new AnswersByKey();
  let sent = 0;
  await Promise.all(
    Array.from({ length: options.retries }, async (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      const key = `retry-${Date.now()}-${i}`;
      const body = transactionBody(kiosk.id, users[randomInt(users.length)]);
      const send = async () => {
        sent += 1;
        const answer = await submitRecorded(run, kiosk.apiKey, body, key);
        if (answer.status === 200) byKey.add(key, answer.body.transaction.id);
      };
      const copies = 2 + randomInt(4);
      await sendBlindly(send, copies, 1 + randomInt(copies));
    }),
  );
  return { requests: options.retries, sent, awarded: byKey.answered, doubled: byKey.doubled };
}

export const hot = phase('hot', { intro: '{hot} concurrent awards to one user', work: hotPhase });
export const retries = phase('retries', { intro: '{retries} requests, each sent 2-5 times', work: retriesPhase });
