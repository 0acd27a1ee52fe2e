// The load test's claims phase (contract §18, docs/claims.md). The claimers are fleet users, so the fleet's books
// (users holding what was returned for them) include what they claimed.
import { db } from '../lib/fleet.mjs';
import { countOf } from './books.mjs';
import { countRefusals, headersOf, phase, post, submitRecorded, transactionBody } from './bursts.mjs';
import { asTyped } from './vouchers.mjs';

const BATCH = 10;
const CLAIMERS = 20;
const RACES_AT_ONCE = 8;

/** @param {import('./run.mjs').Run} run */
async function claimsPhase(run) {
  const { kiosks, users, ledger, options } = run;
  const key = (/** @type {number} */ i) => `claims-${process.pid}-${i}`;
  const deposits = /** @type {{ id: string, claim: { code: string } }[]} */ ([]);
  const singles = Math.ceil(options.claims / 2);
  await Promise.all(
    Array.from({ length: singles }, async (_, i) => {
      const kiosk = kiosks[i % kiosks.length];
      const answer = await submitRecorded(run, kiosk.apiKey, transactionBody(kiosk.id, null), key(i));
      if (answer.status === 200) deposits.push(answer.body.transaction);
    }),
  );
  for (let first = singles; first < options.claims; first += BATCH) {
    const kiosk = kiosks[first % kiosks.length];
    const count = Math.min(BATCH, options.claims - first);
    const items = Array.from({ length: count }, (_, i) => ({
      ...transactionBody(kiosk.id, null),
      idempotencyKey: key(first + i),
    }));
    const answer = await post(run, '/kiosk/transactions/batch', { 'x-api-key': kiosk.apiKey }, { transactions: items });
    for (const result of answer.body?.results ?? []) {
      if (result.status !== 200) continue;
      ledger.award(result.transaction);
      deposits.push(result.transaction);
    }
  }

  const claimers = users.slice(0, CLAIMERS);
  const signedIn = await headersOf(claimers);
  const tally = { deposits: deposits.length, raced: 0, claimedOnce: 0, replayed: 0, refused: {} };
  /** @param {string} userId @param {string} code @param {string} [idempotencyKey] */
  const claim = (userId, code, idempotencyKey) => {
    const headers = { ...signedIn.get(userId), ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) };
    return post(run, `/user/${userId}/claims`, headers, { code });
  };
  const race = async (/** @type {(typeof deposits)[number]} */ { claim: { code } }, /** @type {number} */ i) => {
    const [mine, other] = [claimers[i % claimers.length], claimers[(i + 1) % claimers.length]];
    const typed = asTyped(code, 0);
    const answers = await Promise.all([claim(mine, typed, key(i)), claim(mine, code, key(i)), claim(other, code)]);
    countRefusals(answers, tally.refused);
    const awarded = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.transaction);
    const winners = new Set(awarded.map((transaction) => transaction.userId));
    tally.raced += 1;
    tally.replayed += Math.max(0, awarded.length - 1);
    if (winners.size !== 1) return;
    tally.claimedOnce += 1;
    const [winner] = winners;
    ledger.byUser.set(winner, ledger.earnedBy(winner) + awarded[0].pointsEarned);
  };
  const toClaim = deposits.filter((_, i) => i % 5 !== 0);
  for (let i = 0; i < toClaim.length; i += RACES_AT_ONCE) {
    await Promise.all(toClaim.slice(i, i + RACES_AT_ONCE).map((deposit, n) => race(deposit, i + n)));
  }
  const figures = {
    anonymousDeposits: deposits.length,
    alone: singles,
    inBatches: options.claims - singles,
    claimed: tally.claimedOnce,
    leftUnclaimed: deposits.length - tally.raced,
    duplicatesRefused: /** @type {Record<string, number>} */ (tally.refused)['409 claim-used'] ?? 0,
    replayed: tally.replayed,
  };
  return { tally, figures };
}

export const claims = phase('claims', {
  intro: '{claims} deposits without a user, four in five claimed by two users at once',
  work: claimsPhase,
  async books({ options }, { tally: { deposits, raced, claimedOnce, refused } }) {
    const unclaimed = await countOf(db().collection('transactions').where('status', '==', 'unclaimed'));
    const other = Object.entries(refused).filter(([refusal]) => refusal !== '409 claim-used');
    return {
      'anonymous deposits recorded': [deposits, options.claims],
      'codes claimed by exactly one user': [claimedOnce, raced],
      'claims documents = codes claimed': [await countOf(db().collection('claims')), claimedOnce],
      'unclaimed transaction documents = codes left unclaimed': [unclaimed, deposits - raced],
      'claims refused but as 409 claim-used': [JSON.stringify(Object.fromEntries(other)), '{}'],
    };
  },
});
