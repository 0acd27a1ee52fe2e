import { randomUUID } from 'node:crypto';
import { commitOnFreshReads } from '../adapters/firestore';
import { claimValidDays } from '../config';
import { depositWorth } from '../domain/promotions';
import type { Settled } from '../domain/settleInOrder';
import { ApiError, notFound } from '../errors';
import {
  assertTakesDeposits,
  recordedAnswer,
  type AwardOutcome,
  type AwardReads,
  type PlannedAward,
} from './awardRecord';
import { stageUnclaimed } from './claimAward';
import { budgetsReader, depositSetting } from './promotionBudgets';
import { riskReads, startRiskJudging } from './risk';

/**
 * Anonymous deposits (§18) in one atomic commit: each recorded as any deposit (a
 * retry answered from its record, the origin's and the kiosk's checks), worth its
 * points now, credited to nobody: its claim code waits for a claim (services/claims.ts).
 */
export async function recordAnonymous(awards: PlannedAward[], read: AwardReads): Promise<Settled<AwardOutcome>[]> {
  const submissionId = randomUUID();
  const validDays = claimValidDays();
  // One kiosk's (deposits.ts' anonymousGroup): its id picks the budget shards its promotions take from.
  const { kioskId } = awards[0].deposit;
  const known = awards.filter(({ deposit }) => read.kiosks.get(deposit.kioskId));
  const readWithBudgets = budgetsReader(read.promotions, kioskId);
  return commitOnFreshReads(async (batch) => {
    // Trust (§17): its items count towards its kiosk's limit now; its claimer's limits are judged at the claim.
    const kioskLimit = { ...read.limits, userItemsPerDay: null, travelKmh: null };
    const windowRefs = riskReads(
      kioskLimit,
      awards.map(({ deposit }) => deposit),
    );
    const { snapshots, budgets } = await readWithBudgets(
      [...awards.map(({ transactionRef }) => transactionRef), ...windowRefs],
      known.map(({ deposit }) => depositSetting(deposit, read)),
    );
    const fresh = awards.filter((_, index) => !snapshots[index].exists).map(({ deposit }) => deposit);
    const snapOf = new Map(snapshots.map((snap) => [snap.ref.path, snap]));
    const risk = await startRiskJudging(
      kioskLimit,
      undefined,
      { fresh, claimed: [] },
      { kiosks: read.kiosks, snapshotOf: (ref) => snapOf.get(ref.path) },
      read.origin.oldestAcceptedDay,
    );
    let staged = false;
    const settled = awards.map((award, index): Settled<AwardOutcome> => {
      try {
        if (snapshots[index].exists) return { outcome: recordedAnswer(award, snapshots[index], submissionId) };
        read.origin.checkIfNew?.(award.deposit);
        const kiosk = read.kiosks.get(kioskId);
        if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
        assertTakesDeposits(kioskId, kiosk.status);
        // Its worth now, promotions included and their budgets spent; the cap is its claimer's, when claimed.
        const setting = depositSetting(award.deposit, read);
        const { breakdown } = depositWorth(setting.basePoints, budgets.applying(setting), Number.POSITIVE_INFINITY);
        budgets.take(breakdown);
        const holdReasons = risk.judge(award.deposit, { suspended: false, itemsByDay: {} });
        risk.count(award.deposit, holdReasons);
        staged = true;
        const { apiKeyId } = read.origin;
        const origin = { submissionId, apiKeyId, validDays, holdReasons, kioskPlace: kiosk.location };
        return { outcome: { result: stageUnclaimed(batch, award, breakdown, origin), replayed: false } };
      } catch (error) {
        if (error instanceof ApiError) return { error };
        throw error;
      }
    });
    if (staged) {
      budgets.stage(batch);
      risk.stage(batch, new Date());
    }
    return { result: settled, commit: staged };
  });
}
