// The load test's codes that people type: the partners (§12) and vouchers phase (docs/operations.md, Reliability and
// load), and the claims phase (contract §18, docs/claims.md), whose claimers are fleet users, so the fleet's books
// (users holding what was returned for them) include what they claimed.
import { db } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { countOf, docsOf, each, notificationsOf } from './books.mjs';
import { countRefusals, headersOf, phase, post, submitRecorded, transactionBody } from './bursts.mjs';

const { GUESS_LIMIT } = requireFunctions('./lib/services/vouchers.js');

export const CAFE = { id: 'load-cafe', name: 'Load test café' };
const OTHER_PARTNER = { id: 'load-other-partner', name: 'Load test bakery' };
const TILLS = 3;
/** Codes raced at once: each race is itself 3-6 requests at once. */
const RACES_AT_ONCE = 8;

/** A key per till of the café, and one for the other partner. @param {import('./run.mjs').Run} run */
async function setUpPartners(run) {
  const created = async (/** @type {string} */ path, /** @type {unknown} */ body) => {
    const answer = await post(run, path, run.admin, body);
    if (answer.status >= 300) throw new Error(`POST ${path}: ${answer.status}`);
    return answer.body;
  };
  for (const partner of [CAFE, OTHER_PARTNER]) await created('/admin/partners', partner);
  const key = async (/** @type {string} */ partnerId) =>
    /** @type {string} */ ((await created(`/admin/partners/${partnerId}/keys`, { label: 'load test' })).key);
  const tills = [];
  for (let i = 0; i < TILLS; i++) tills.push(await key(CAFE.id));
  return { tills, otherPartner: await key(OTHER_PARTNER.id) };
}

/** `ABCD2345WXYZ` as a person may type it: `abcd-2345-wxyz`, `ABCD 2345 WXYZ` or as it is. */
export function asTyped(/** @type {string} */ code, /** @type {number} */ i) {
  const groups = code.match(/.{1,4}/g) ?? [code];
  return [groups.join('-').toLowerCase(), groups.join(' '), code][i % 3];
}

/**
 * A cancel answered 200 here joins the mixed phase's tally `cancelled`, so its books refund it.
 * @param {import('./run.mjs').Run} run
 * @param {{ partners: { tills: string[], otherPartner: string }, mixed: { tally: { cancelled: Map<string, number> } } }} done
 */
async function voucherPhase(run, { partners: { tills, otherPartner }, mixed }) {
  const stored = await db().collection('redemptions').where('partnerId', '==', CAFE.id).get();
  const vouchers = stored.docs.filter((doc) => doc.get('status') === 'issued');

  const race = async (/** @type {any} */ voucher, /** @type {number} */ i) => {
    const path = `/partner/vouchers/${encodeURIComponent(asTyped(voucher.get('code'), i))}/use`;
    /** @param {string} apiKey @param {string} key */
    const use = (apiKey, key) => post(run, path, { 'x-api-key': apiKey, 'idempotency-key': key }, undefined);
    const keys = tills.map((_, till) => `use-${voucher.id}-${till}`);
    const cancelPath = `/admin/redemptions/${voucher.id}/cancel`;
    const [uses, foreign, cancel] = await Promise.all([
      Promise.all([...tills.map((apiKey, till) => use(apiKey, keys[till])), use(tills[0], keys[0])]),
      i < GUESS_LIMIT ? use(otherPartner, `use-${voucher.id}-other`) : undefined,
      i % 4 === 0 ? post(run, cancelPath, run.admin, { reason: 'load test' }) : undefined,
    ]);
    if (cancel?.status === 200) mixed.tally.cancelled.set(voucher.id, 1);
    const usedBy = keys.filter((_, till) => uses.some((answer, n) => n % TILLS === till && answer.status === 200));
    return { id: voucher.id, uses, usedBy, foreign, cancel };
  };
  const races = [];
  for (let i = 0; i < vouchers.length; i += RACES_AT_ONCE) {
    races.push(...(await Promise.all(vouchers.slice(i, i + RACES_AT_ONCE).map((v, n) => race(v, i + n)))));
  }
  const figures = {
    tills: tills.length,
    vouchers: vouchers.length,
    usesSent: races.length * (TILLS + 1) + races.filter((r) => r.foreign).length,
    used: races.filter((r) => r.usedBy.length > 0).length,
    cancelledInTheRace: races.filter((r) => r.cancel?.status === 200).length,
    refused: countRefusals(races.flatMap((r) => [...r.uses, r.foreign, r.cancel])),
  };
  return { races, figures };
}

/** Before the mixed phase, whose vouchers are the café's. */
export const partners = phase('partners', { setup: setUpPartners });
export const vouchers = phase('vouchers', {
  intro: `each voucher used from ${TILLS} tills at once`,
  work: voucherPhase,
  /** Every voucher raced ends used or cancelled as answered: none left issued. */
  async books(_, { races }) {
    const both = races.filter((r) => r.usedBy.length > 0 && r.cancel?.status === 200).length;
    const tried = races.filter((r) => r.foreign);
    const found = tried.filter((r) => r.foreign?.status !== 404 || r.foreign.body?.code !== 'voucher-not-found');
    const expected = new Map(races.map((r) => [r.id, r.usedBy.length > 0 ? 'used' : 'cancelled']));
    const docs = await docsOf('redemptions', [...expected.keys()]);
    const usedAtAsStatus = docs.filter((doc) => (doc.usedAt != null) !== (doc.status === 'used'));
    const used = [...expected.values()].filter((status) => status === 'used').length;
    return {
      'vouchers used under two Idempotency-Keys': [races.filter((r) => r.usedBy.length > 1).length, 0],
      'vouchers both used and cancelled': [both, 0],
      [`another partner's uses (of ${tried.length} codes) not answered 404 voucher-not-found`]: [found.length, 0],
      'raced vouchers used or cancelled as answered': each(docs, ({ id }) => ({ status: expected.get(id) })),
      'vouchers with usedAt but not used, or used without usedAt': [usedAtAsStatus.length, 0],
      'voucher uses recorded (voucherUses documents)': [await countOf(db().collection('voucherUses')), used],
      'voucher-used notifications = vouchers used': [await notificationsOf('voucher-used'), used],
    };
  },
});

const BATCH = 10;
const CLAIMERS = 20;

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
