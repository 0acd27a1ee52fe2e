// The load test's promotions (contract §16, docs/operations.md): the mixed and lifecycle phases race for the budget.
import { requireFunctions } from '../lib/paths.mjs';
import { phase, post } from './bursts.mjs';

const { allPromotions } = requireFunctions('./lib/data/promotions.js');

/** Small enough that the deposits at its kiosks (each worth tens of points doubled) spend it even in a quick run. */
const BUDGET = 300;

/** @param {import('./run.mjs').Run} run */
async function setUpPromotions(run) {
  const ids = run.kiosks.map(({ id }) => id);
  const half = Math.ceil(ids.length / 2);
  const promotions = [
    { id: 'load-double', name: 'Double points', multiplier: 2, budgetPoints: BUDGET, kioskIds: ids.slice(0, half) },
    { id: 'load-bonus', name: 'Bonus', bonusPoints: 5, kioskIds: ids.length > 1 ? ids.slice(half) : ids },
  ];
  for (const promotion of promotions) {
    const answer = await post(run, '/admin/promotions', run.admin, {
      ...promotion,
      kioskIds: promotion.kioskIds.slice(0, 100),
    });
    if (answer.status !== 201) throw new Error(`promotion ${promotion.id} not created: ${answer.status}`);
  }
}

export const promotions = phase('promotions', {
  setup: setUpPromotions,
  async books(_, __, { transactions }) {
    /** @type {Map<string, number>} */
    const shares = new Map();
    let unsummed = 0;
    for (const transaction of transactions) {
      const breakdown = transaction.get('breakdown') ?? [];
      let total = 0;
      for (const { source, promotionId, points } of breakdown) {
        total += points;
        if (source === 'promotion') shares.set(promotionId, (shares.get(promotionId) ?? 0) + points);
      }
      if (breakdown.length > 0 && total !== transaction.get('pointsEarned')) unsummed += 1;
    }
    /** @type {{ id: string, budgetPoints: number | null, pointsGiven: number }[]} */
    const promotions = await allPromotions();
    /** @type {Record<string, [unknown, unknown, boolean?]>} */
    const checks = { 'transactions whose breakdown does not sum to their points': [unsummed, 0] };
    /** @type {Record<string, string>} */
    const figures = {};
    for (const { id, budgetPoints, pointsGiven } of promotions) {
      const share = shares.get(id) ?? 0;
      figures[id] = `budget ${budgetPoints ?? 'unlimited'}, given ${pointsGiven}, breakdowns ${share}`;
      checks[`${id}: pointsGiven = its breakdown entries`] = [pointsGiven, share];
      if (budgetPoints !== null) checks[`${id}: its budget given exactly, never more`] = [pointsGiven, budgetPoints];
    }
    return { checks, figures };
  },
});
