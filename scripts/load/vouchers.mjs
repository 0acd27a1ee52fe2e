// @ts-check
// The load test's partners (contract §12): a café with three tills (a key each) and
// another partner. The vouchers of the mixed phase name the café. After the mixed
// phase every voucher is shown at the café's three tills at once, written as people
// read codes out (lower case, hyphens, spaces): each till sends its use with a key of
// its own, one till twice with the same key; the other partner tries the code too (the
// first GUESS_LIMIT codes: beyond them its key is a guesser's, answered 429); and an
// operator cancels every fourth voucher still issued at the same moment.
// voucherBooks() holds Firestore to the answers: every voucher used at most once, a
// used voucher never refunded, another partner never finding a code.
import { performance } from 'node:perf_hooks';
import { KIOSK_RETRIES, postWithRetries } from '../../kiosk-simulator/client.ts';
import { requireFunctions } from '../lib/paths.mjs';
import { countOf } from './books.mjs';

const { db } = requireFunctions('./lib/adapters/firestore.js');
const { GUESS_LIMIT } = requireFunctions('./lib/services/vouchers.js');

export const CAFE = { id: 'load-cafe', name: 'Load test café' };
const OTHER_PARTNER = { id: 'load-other-partner', name: 'Load test bakery' };
const TILLS = 3;
/** Vouchers raced at once: each race is itself 5-6 requests at once. */
const RACES_AT_ONCE = 8;

/**
 * @typedef {import('./books.mjs').Ledger} Ledger
 * @typedef {{ status: number, body: any, headers?: Headers }} Answer
 * @typedef {{ id: string, code: string, userId: string }} Voucher
 * @typedef {{ voucher: Voucher, usesByKey: Map<string, Answer[]>, foreign?: Answer, cancel?: Answer }} Race
 */

/**
 * @param {string} api
 * @param {Ledger} ledger
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {unknown} body
 */
const post = (api, ledger, path, headers, body) =>
  postWithRetries(api, path, { headers, body }, KIOSK_RETRIES, { onResponse: ledger.response });

/**
 * The café and the other partner through the API, and a key per till (and one for the other partner).
 * @param {string} api
 * @param {Record<string, string>} admin
 * @param {Ledger} ledger
 */
export async function setUpPartners(api, admin, ledger) {
  /** @param {string} partnerId */
  const key = async (partnerId) => {
    const answer = await post(api, ledger, `/admin/partners/${partnerId}/keys`, admin, { label: 'load test' });
    if (answer.status !== 201) throw new Error(`partner key for ${partnerId}: ${answer.status}`);
    return /** @type {string} */ (answer.body.key);
  };
  for (const partner of [CAFE, OTHER_PARTNER]) {
    const answer = await post(api, ledger, '/admin/partners', admin, partner);
    if (answer.status >= 300) throw new Error(`partner ${partner.id}: ${answer.status}`);
  }
  const tills = [];
  for (let i = 0; i < TILLS; i++) tills.push(await key(CAFE.id));
  return { tills, otherPartner: await key(OTHER_PARTNER.id) };
}

/** `ABCD2345WXYZ` as a person may type it: `abcd-2345-wxyz`, `ABCD 2345 WXYZ` or as it is. */
function asTyped(/** @type {string} */ code, /** @type {number} */ i) {
  const groups = code.match(/.{1,4}/g) ?? [code];
  return [groups.join('-').toLowerCase(), groups.join(' '), code][i % 3];
}

/**
 * @param {{ api: string, admin: Record<string, string>, partners: Awaited<ReturnType<typeof setUpPartners>>, rewardIds: string[] }} plan
 * @param {Ledger} ledger
 */
export async function voucherPhase({ api, admin, partners, rewardIds }, ledger) {
  const started = performance.now();
  const stored = await db().collection('redemptions').where('rewardId', 'in', rewardIds).get();
  const issued = stored.docs.filter((/** @type {any} */ doc) => doc.get('status') === 'issued');
  /** @type {Voucher[]} */
  const vouchers = issued.map((/** @type {any} */ doc) => ({
    id: doc.id,
    code: doc.get('code'),
    userId: doc.get('userId'),
  }));

  /** @param {Voucher} voucher @param {number} i @returns {Promise<Race>} */
  const race = async (voucher, i) => {
    const path = `/partner/vouchers/${encodeURIComponent(asTyped(voucher.code, i))}/use`;
    /** @param {string} apiKey @param {string} key */
    const use = (apiKey, key) => post(api, ledger, path, { 'x-api-key': apiKey, 'idempotency-key': key }, undefined);
    const keys = partners.tills.map((_, till) => `use-${voucher.id}-${till}`);
    const [uses, foreign, cancel] = await Promise.all([
      Promise.all([...partners.tills.map((apiKey, till) => use(apiKey, keys[till])), use(partners.tills[0], keys[0])]),
      i < GUESS_LIMIT ? use(partners.otherPartner, `use-${voucher.id}-other`) : undefined,
      i % 4 === 0
        ? post(api, ledger, `/admin/redemptions/${voucher.id}/cancel`, admin, { reason: 'load test' })
        : undefined,
    ]);
    /** @type {Map<string, Answer[]>} */
    const usesByKey = new Map(keys.map((key) => [key, []]));
    uses.forEach((answer, n) => usesByKey.get(keys[n % TILLS])?.push(answer));
    return { voucher, usesByKey, foreign, cancel };
  };
  /** @type {Race[]} */
  const races = [];
  for (let i = 0; i < vouchers.length; i += RACES_AT_ONCE) {
    races.push(...(await Promise.all(vouchers.slice(i, i + RACES_AT_ONCE).map((v, n) => race(v, i + n)))));
  }
  const usedBy = (/** @type {Race} */ r) =>
    [...r.usesByKey].filter(([, answers]) => answers.some((answer) => answer.status === 200)).map(([key]) => key);
  const figures = {
    tills: partners.tills.length,
    vouchers: vouchers.length,
    usesSent: races.length * (TILLS + 1) + races.filter((r) => r.foreign).length,
    used: races.filter((r) => usedBy(r).length > 0).length,
    cancelledInTheRace: races.filter((r) => r.cancel?.status === 200).length,
    refused: refusals(races),
    seconds: (performance.now() - started) / 1000,
  };
  return { races, figures, usedBy };
}

/** How many answers of each `status code` the uses, the other partner's uses and the cancels got. */
function refusals(/** @type {Race[]} */ races) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const r of races) {
    const answers = [
      ...[...r.usesByKey.values()].flat(),
      ...(r.foreign ? [r.foreign] : []),
      ...(r.cancel ? [r.cancel] : []),
    ];
    for (const { status, body } of answers.filter((answer) => answer.status >= 400)) {
      const name = `${status} ${body?.code ?? 'no code'}`;
      counts[name] = (counts[name] ?? 0) + 1;
    }
  }
  return counts;
}

/**
 * The vouchers' books: no voucher used by two keys, nor used and cancelled; every
 * voucher raced ends used or cancelled as answered (none left issued), `usedAt` set
 * exactly on the used; the other partner answered 404 `voucher-not-found` every time;
 * one notification per use. A cancel answered 200 during the race is the mixed
 * phase's to refund (`cancelled`), so its books count it.
 * @param {import('./books.mjs').Books} books
 * @param {Awaited<ReturnType<typeof voucherPhase>>} phase
 * @param {Map<string, number>} cancelled the mixed phase's tally: redemption id → cancels answered 200
 */
export async function voucherBooks(books, { races, usedBy }, cancelled) {
  for (const r of races) if (r.cancel?.status === 200) cancelled.set(r.voucher.id, 1);
  books.expect('vouchers used under two Idempotency-Keys', races.filter((r) => usedBy(r).length > 1).length, 0);
  const both = races.filter((r) => usedBy(r).length > 0 && r.cancel?.status === 200).length;
  books.expect('vouchers both used and cancelled', both, 0);
  const tried = races.filter((r) => r.foreign);
  const foreignFound = tried.filter((r) => r.foreign?.status !== 404 || r.foreign.body?.code !== 'voucher-not-found');
  books.expect(
    `another partner's uses (of ${tried.length} codes) not answered 404 voucher-not-found`,
    foreignFound.length,
    0,
  );
  const docs = await db().getAll(...races.map((r) => db().collection('redemptions').doc(r.voucher.id)));
  const expected = new Map(races.map((r) => [r.voucher.id, usedBy(r).length > 0 ? 'used' : 'cancelled']));
  books.expectEach('raced vouchers used or cancelled as answered', docs, ({ id }) => ({ status: expected.get(id) }));
  const usedAtAsStatus = docs.filter(
    (/** @type {any} */ doc) => (doc.get('usedAt') != null) !== (doc.get('status') === 'used'),
  );
  books.expect('vouchers with usedAt but not used, or used without usedAt', usedAtAsStatus.length, 0);
  const used = [...expected.values()].filter((status) => status === 'used').length;
  books.expect('voucher uses recorded (voucherUses documents)', await countOf(db().collection('voucherUses')), used);
  const told = await countOf(db().collectionGroup('notifications').where('type', '==', 'voucher-used'));
  books.expect('voucher-used notifications = vouchers used', told, used);
}
