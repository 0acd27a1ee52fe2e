/**
 * The audit's promotions check (contract §16, part four's clarification): every
 * transaction's breakdown sums to its points, and each promotion's `pointsGiven` equals
 * its entries over all transactions.
 */
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { pointsGivenBy, promotionsCollection } from '../data/promotions';
import { transactionsCollection } from '../data/transactions';
import { legacyBreakdown, pointsByPromotion } from '../domain/promotions';
import type { BreakdownEntry } from '../model/promotionViews';

const breakdownOf = (transaction: DocumentSnapshot): BreakdownEntry[] =>
  transaction.get('breakdown') ?? legacyBreakdown(transaction.get('pointsEarned'));

/** The user's transactions whose breakdown does not sum to their points. */
export const breakdownDifferences = (transactions: DocumentSnapshot[]): string[] =>
  transactions.flatMap((transaction) => {
    const sum = breakdownOf(transaction).reduce((total, entry) => total + entry.points, 0);
    const points = transaction.get('pointsEarned');
    return sum === points ? [] : [`transaction ${transaction.id}: breakdown sums to ${sum}, pointsEarned is ${points}`];
  });

/** Each promotion's share of the transactions' breakdowns, added up as the audit pages through them. */
export class PromotionTally {
  private readonly given = new Map<string, number>();

  add(transactions: DocumentSnapshot[]): void {
    for (const transaction of transactions) {
      for (const [promotionId, points] of pointsByPromotion(breakdownOf(transaction))) {
        this.given.set(promotionId, (this.given.get(promotionId) ?? 0) + points);
      }
    }
  }

  /**
   * A line per promotion whose `pointsGiven` differs from its share. The pages read
   * the transactions at other times than the shards: a promotion that differs is judged
   * again on one read of its shards and every transaction (a read-only transaction).
   */
  async differences(): Promise<string[]> {
    const differing = await differingFrom(this.given);
    if (differing.length === 0) return [];
    const again = await db().runTransaction(
      async (tx) => {
        const transactions = (await tx.get(transactionsCollection())).docs;
        const shares = new PromotionTally();
        shares.add(transactions);
        return differingFrom(shares.given, differing, (query) => tx.get(query));
      },
      { readOnly: true },
    );
    return again.map(
      ({ promotionId, pointsGiven, share }) =>
        `promotion ${promotionId}: pointsGiven ${pointsGiven}, the transactions' breakdowns say ${share}`,
    );
  }
}

async function differingFrom(
  given: Map<string, number>,
  only?: { promotionId: string }[],
  read?: Parameters<typeof pointsGivenBy>[1],
): Promise<{ promotionId: string; pointsGiven: number; share: number }[]> {
  const ids = only
    ? only.map(({ promotionId }) => promotionId)
    : [...new Set([...(await promotionsCollection().select().get()).docs.map(({ id }) => id), ...given.keys()])];
  const stored = await pointsGivenBy(ids, read);
  return ids
    .map((promotionId) => ({ promotionId, pointsGiven: stored.get(promotionId)!, share: given.get(promotionId) ?? 0 }))
    .filter(({ pointsGiven, share }) => pointsGiven !== share);
}
