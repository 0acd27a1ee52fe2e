// The load test's partners (§12) and vouchers phase (docs/operations.md, Reliability and load).
import { db } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { countOf, docsOf, each, notificationsOf } from './books.mjs';
import { countRefusals, phase, post } from './bursts.mjs';

const { GUESS_LIMIT } = requireFunctions('./lib/services/vouchers.js');

export const CAFE = { id: 'load-cafe', name: 'Load test café' };
const OTHER_PARTNER = { id: 'load-other-partner', name: 'Load test bakery' };
const TILLS = 3;
/** Vouchers raced at once: each race is itself 5-6 requests at once. */
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
  /** @type {any[]} */
  const vouchers = stored.docs.filter((/** @type {any} */ doc) => doc.get('status') === 'issued');

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
