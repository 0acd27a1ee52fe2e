// Promotions (contract §16): POST /kiosk/transaction with 20 active promotions against none, c=1 and c=16, alternating
// round by round (4 of the 20 apply to every deposit: a multiplier and three bonuses; the other 16 are at other kiosks),
// and the same 20 with one of the 4 bonuses budgeted; then a budgeted promotion under c=16: awards per second, and its
// budget given exactly.
import { requireFunctions } from '../../lib/paths.mjs';
import { cannon, versus } from '../host.mjs';

const { upsertPromotion, promotionFromBody, pointsGivenBy } = requireFunctions('./lib/data/promotions.js');
/** @param {Record<string, unknown>} body @param {boolean} active */
const set = (body, active) => upsertPromotion(promotionFromBody({ ...body, active }));
const BUDGETED_BONUS = { id: 'bench-budget', budgetPoints: 100_000_000 };

const TWENTY = [
  { id: 'bench-double', name: 'Double', multiplier: 2 },
  { id: 'bench-bonus-a', name: 'Bonus A', bonusPoints: 5 },
  { id: 'bench-bonus-b', name: 'Bonus B', bonusPoints: 3 },
  { id: 'bench-budget', name: 'Bonus C', bonusPoints: 1 },
  ...Array.from({ length: 16 }, (_, i) => ({
    id: `bench-other-${i}`,
    name: 'Elsewhere',
    multiplier: 3,
    kioskIds: [`elsewhere-${i}`],
  })),
];
const BUDGETED = { id: 'bench-budgeted', name: 'Budgeted under load', bonusPoints: 10 };

/**
 * @param {{ api: string, endpoint: import('../data.mjs').Endpoint, rounds: number, amount: (c: number) => number }} plan
 */
export async function measurePromotions({ api, endpoint, rounds, amount }) {
  // Every run after its switch warmed by 2c awards of its own.
  const switchTo = (/** @type {boolean} */ active, budgeted = false) => ({
    build: endpoint.request,
    switchTo: async (/** @type {number} */ c) => {
      const budgetOf = (/** @type {{ id: string }} */ promotion) =>
        budgeted && promotion.id === BUDGETED_BONUS.id ? BUDGETED_BONUS : {};
      await Promise.all(TWENTY.map((promotion) => set({ ...promotion, ...budgetOf(promotion) }, active)));
      await cannon(api, { connections: c, amount: 2 * c, build: endpoint.request });
    },
  });
  const plan = { concurrencies: [1, 16], rounds, amount };
  const kinds = { noneP50: switchTo(false), twentyP50: switchTo(true), oneBudgetedP50: switchTo(true, true) };
  const rows = await versus(api, plan, kinds);
  await Promise.all(TWENTY.map((promotion) => set(promotion, false)));

  // Half the awards' worth of bonus: the budget runs out halfway, under c=16.
  const awards = amount(16) * rounds;
  const budgetPoints = (awards / 2) * BUDGETED.bonusPoints;
  await set({ ...BUDGETED, budgetPoints }, true);
  let answered = 0;
  let breakdownSum = 0;
  const started = performance.now();
  await cannon(api, {
    connections: 16,
    amount: awards,
    build: endpoint.request,
    onAnswer: (status, body) => {
      if (status !== 200) return;
      answered += 1;
      for (const entry of JSON.parse(body).transaction.breakdown) {
        if (entry.promotionId === BUDGETED.id) breakdownSum += entry.points;
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const pointsGiven = (await pointsGivenBy([BUDGETED.id])).get(BUDGETED.id);
  await set({ ...BUDGETED, budgetPoints }, false);
  const exact = pointsGiven === budgetPoints && breakdownSum === budgetPoints;
  console.log(`  budgeted: ${answered} awards in ${seconds.toFixed(1)} s, ${pointsGiven} of ${budgetPoints} given`);
  const row = { c: 16, awards: answered, awardsPerSecond: answered / seconds, budgetPoints, pointsGiven, exact };
  return { promotions: rows, promotionBudget: [{ ...row, breakdownSum }] };
}
