import { randomUUID } from 'node:crypto';
import { logInfo } from '../log';
import { commitOnFreshReads, contention, db } from '../adapters/firestore';
import { capWindowDays, offlineWindowDays } from '../config';
import { depositKioskFromSnapshot, kioskClockFromSnapshot, kiosksCollection } from '../data/kiosks';
import { activeFromSnapshot, activePromotionsRef } from '../data/promotions';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { riskConfigFromSnapshot, riskConfigRef } from '../data/riskConfig';
import { pointsModel, usersCollection } from '../data/users';
import {
  assertDeposit,
  assertInOfflineWindow,
  oldestAcceptedDay,
  type Deposit,
  type DepositSubmission,
} from '../domain/deposit';
import { assertKioskMatches, type KioskCaller } from '../domain/kiosk';
import { createKeyedQueue } from '../domain/keyedQueue';
import { computeAward, type Award } from '../domain/rewards';
import { heldAward } from '../domain/risk';
import { changePoints, monthOf } from '../domain/pointsExpiry';
import { settleInOrder, type Settled } from '../domain/settleInOrder';
import { ApiError, notFound, overloaded } from '../errors';
import { recordAnonymous } from './anonymousDeposits';
import {
  assertTakesDeposits,
  planAward,
  recordedAnswer,
  stageAward,
  type AwardOrigin,
  type AwardOutcome,
  type AwardReads,
  type PlannedAward,
} from './awardRecord';
import { claimAnswered, claimReads, inHoldOrder, recordedHoldReasons, stageClaimed } from './claimAward';
import { profileToAward } from './provisioning';
import { itemsByDayAfter, riskReads, startRiskJudging } from './risk';
import { budgetsReader, depositSetting } from './promotionBudgets';

/**
 * Deposits from one kiosk, alone (POST /kiosk/transaction) or in a batch: each meets
 * the checks past its schema in the order a single submission meets them, then the
 * award (all of them together, see awardTransactions). Answered in order, one
 * deposit's failure (an ApiError, or an unexpected one) never failing another.
 *
 * A retry is answered from the record first: the offline window, like the kiosk's
 * status, is checked only of a deposit that is not recorded yet (after the award has
 * looked its key up), so a retry is never refused for a window that moved since.
 */
export async function acceptDeposits(
  submissions: (DepositSubmission & { idempotencyKey?: string })[],
  caller: KioskCaller,
): Promise<Settled<AwardOutcome>[]> {
  const now = new Date();
  const offlineMaxDays = offlineWindowDays();
  return settleInOrder(submissions, {
    prepare: (submission) => {
      const deposit = assertDeposit(submission, now);
      assertKioskMatches(caller, deposit.kioskId);
      return deposit;
    },
    settle: (deposits) =>
      awardTransactions(deposits, {
        apiKeyId: caller.keyId,
        oldestAcceptedDay: oldestAcceptedDay(now, capWindowDays()),
        checkIfNew: (deposit) => assertInOfflineWindow(deposit, now, offlineMaxDays),
      }),
  });
}

/** One deposit alone: its outcome, or its error thrown. */
export async function acceptDeposit(
  submission: DepositSubmission & { idempotencyKey?: string },
  caller: KioskCaller,
): Promise<AwardOutcome> {
  const [settled] = await acceptDeposits([submission], caller);
  if ('error' in settled) throw settled.error;
  return settled.outcome;
}

/**
 * Awards to one user (a deposit's, and a claim's: services/claims.ts) commit one at a time within this instance. Concurrent awards
 * to one user would otherwise race: all but one lose the precondition, re-read and
 * try again, which `npm run bench` measured halving an instance's throughput when
 * ~6 awards per user are in flight (10 users, 64 connections). Across instances
 * the precondition decides; outcomes are the same either way.
 */
export const oneAtATimePerUser = createKeyedQueue();

/**
 * Records deposits and awards their points: each deposit exactly as alone (POST
 * /kiosk/transaction), answered in order, one deposit's failure never another's.
 *
 * What is the same for every deposit is done once: the rewards config and each kiosk
 * are read once. The deposits of one user are awarded in one atomic commit (their
 * transactions, their `earn` ledger entries, the user's new balance once), in the
 * order given, so the daily cap and every `balanceAfter` come out as if they had been
 * sent one after the other; different users' commits run side by side. A key given
 * twice names one transaction: its later occurrences are awarded in a later round,
 * after the first has committed, and so are answered as retries (a replay, or 422).
 */
export async function awardTransactions(deposits: Deposit[], origin: AwardOrigin): Promise<Settled<AwardOutcome>[]> {
  if (deposits.length === 0) return [];
  const planned = deposits.map(planAward);
  const kioskIds = [...new Set(deposits.map(({ kioskId }) => kioskId))];
  // Failing here fails every deposit alike, each with its own result (a batch never fails whole).
  const shared = await readShared(kioskIds).catch((error: unknown) => ({ error }));
  if ('error' in shared) return deposits.map(() => ({ error: shared.error }));
  const arrivedAt = Date.now();
  const rounds = roundsOf(planned);
  const settled = await settleInOrder(planned, {
    prepare: (award) => award,
    groupOf: ({ deposit }) => deposit.userId ?? anonymousGroup(deposit.kioskId),
    roundOf: (index) => rounds[index],
    settle: (awards) => {
      const { userId } = awards[0].deposit;
      if (userId === null) return recordAnonymous(awards, { ...shared, origin });
      return oneAtATimePerUser(userId, () => {
        // Waiting longer than contention may last is overload: given up before anything is read or written.
        if (Date.now() - arrivedAt > contention.deadlineMs) throw overloaded();
        return awardToUser(userId, awards, { ...shared, origin });
      });
    },
  });
  for (const each of settled) if ('outcome' in each) logOutcome(each.outcome);
  return settled;
}

/**
 * The group of a kiosk's anonymous deposits (§18), recorded together: no user id holds
 * a slash (domain/ids.ts), so none is ever taken for one.
 */
const anonymousGroup = (kioskId: string): string => `/anonymous/${kioskId}`;

/**
 * What every deposit's award reads alike: the rewards config, the limits (contract §17),
 * the kiosks and the active promotions (§16: one document, read fresh with the limits and the kiosks), once each.
 */
async function readShared(kioskIds: string[]) {
  const [config, [riskSnap, promotionsSnap, ...kioskSnaps]] = await Promise.all([
    loadRewardsConfig(),
    db().getAll(riskConfigRef(), activePromotionsRef(), ...kioskIds.map((kioskId) => kiosksCollection().doc(kioskId))),
  ]);
  return {
    config,
    limits: riskConfigFromSnapshot(riskSnap),
    kiosks: new Map(kioskSnaps.map((snap) => [snap.id, depositKioskFromSnapshot(snap)])),
    clocks: new Map(kioskSnaps.map((snap) => [snap.id, kioskClockFromSnapshot(snap)])),
    promotions: { current: activeFromSnapshot(promotionsSnap) },
  };
}

/** Each deposit's round, in which no transaction id appears twice: a key's k-th occurrence is in round k. */
function roundsOf(planned: PlannedAward[]): number[] {
  const occurrences = new Map<string, number>();
  return planned.map(({ transactionRef }) => {
    const round = occurrences.get(transactionRef.id) ?? 0;
    occurrences.set(transactionRef.id, round + 1);
    return round;
  });
}

/**
 * One user's deposits in one atomic commit, guarded by a precondition on the user
 * document, so concurrent submissions never lose an award: if anything changed the
 * user since the read, the whole commit fails and is recomputed on fresh reads.
 *
 Every submission of an idempotency key creates that key's one transaction document
 * (planAward): a later submission, at any time, finds it and is answered with it (or
 * 422 when its body differs); a concurrent twin loses the create and then finds it.
 * Each call stores an id of its own
 * (`submissionId`) on what it records, and every attempt reads its transactions
 * first: a commit that landed with its answer lost (the SDK's resend then fails on
 * its own writes, which looks like a lost race) is found on the fresh reads and
 * answered as this call's own, never as a replay, and never recorded twice.
 *
 * The daily cap counts by the UTC day each deposit happened; past the cap the
 * deposit is still recorded, for the points left under it.
 */
export async function awardToUser(
  userId: string,
  awards: PlannedAward[],
  read: AwardReads,
): Promise<Settled<AwardOutcome>[]> {
  const submissionId = randomUUID();
  const refs = [
    usersCollection().doc(userId),
    ...awards.map(({ transactionRef }) => transactionRef),
    ...awards.flatMap(({ claim }) => (claim ? claimReads(claim) : [])),
    // Trust (§17): what the limits on read, in the same round trip (a claim's kiosk limit was judged when recorded).
    ...riskReads(
      read.limits,
      awards.flatMap(({ claim, deposit }) => (claim ? [] : [deposit])),
    ),
  ];
  const settingOf = ({ deposit }: PlannedAward) => depositSetting(deposit, read);
  const readWithBudgets = budgetsReader(read.promotions, userId);

  return commitOnFreshReads(async (batch) => {
    // The promotions' budget shards are read with the user, in the same round trip (§16).
    const { snapshots, budgets } = await readWithBudgets(
      refs,
      awards.filter(({ claim, deposit }) => !claim && read.kiosks.get(deposit.kioskId)).map(settingOf),
    );
    const [userSnap, ...snaps] = snapshots;
    const snapOf = new Map(snaps.map((snap) => [snap.ref.path, snap]));
    const profile = await profileToAward(userSnap, read.config);
    const fresh = awards
      .filter((award) => !award.claim && !snapOf.get(award.transactionRef.path)?.exists)
      .map(({ deposit }) => deposit);
    // A claim (§18) is judged on its claimer's limits; its kiosk's were judged when it was recorded.
    const claimed = awards
      .filter(({ claim }) => claim)
      .map(({ deposit, transactionRef }) => ({ deposit, recorded: snapOf.get(transactionRef.path)! }));
    const risk = await startRiskJudging(
      read.limits,
      profile.user && { userId, lastDeposit: profile.user.lastDeposit },
      { fresh, claimed },
      { kiosks: read.kiosks, snapshotOf: (ref) => snapOf.get(ref.path) },
      read.origin.oldestAcceptedDay,
    );
    // Points are added in the month they are credited, whenever the deposit was made (domain/pointsExpiry.ts).
    const addedIn = monthOf(new Date());
    let user = profile.user;
    let latest: Award | undefined;
    const settled = awards.map((award): Settled<AwardOutcome> => {
      const recorded = snapOf.get(award.transactionRef.path);
      try {
        const { kioskId, plasticCount, metalCount, happenedAt } = award.deposit;
        if (award.claim) {
          const answered = claimAnswered(award.claim, recorded!, (ref) => snapOf.get(ref.path), submissionId);
          if (answered) return { outcome: answered };
          if (!user) throw notFound(`User ${userId} not found`);
          // Trust (§17): a suspended user claims nothing (their deposits are held; a claim is refused).
          if (user.suspended) throw new ApiError('account-suspended', 'This account is suspended: it cannot claim');
        } else {
          if (recorded?.exists) return { outcome: recordedAnswer(award, recorded, submissionId) };
          read.origin.checkIfNew?.(award.deposit);
          const kiosk = read.kiosks.get(kioskId);
          if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
          if (!user) throw notFound(`User ${userId} not found`);
          assertTakesDeposits(kioskId, kiosk.status);
        }
        latest = computeAward(
          read.config,
          user,
          { plasticCount, metalCount, recorded: award.claim?.recorded },
          happenedAt,
          read.origin.oldestAcceptedDay,
          // A claimed deposit's promotions were applied, and their budgets spent, when it was recorded.
          award.claim ? [] : budgets.applying(settingOf(award)),
        );
        // A held deposit's promotions spend their budgets now (docs/trust.md); a claim's spent them when recorded.
        if (!award.claim) budgets.take(latest.breakdown);
        // Trust (contract §17): past a limit the deposit is recorded and counted, its points held.
        const holdReasons = award.claim
          ? inHoldOrder([...recordedHoldReasons(recorded!), ...risk.judge(award.deposit, user)])
          : risk.judge(award.deposit, user);
        const held = holdReasons.length > 0;
        if (held) latest = heldAward(read.config, latest, user.totalPoints);
        risk.count(award.deposit, holdReasons);
        const origin = { userId, submissionId, pushQueued: user.pushToken !== undefined, holdReasons };
        const transaction = award.claim
          ? stageClaimed(batch, { ...award, claim: award.claim }, recorded!, latest, {
              ...origin,
              read: (ref) => snapOf.get(ref.path),
            })
          : stageAward(batch, award, latest, {
              ...origin,
              apiKeyId: read.origin.apiKeyId,
              kioskPlace: read.kiosks.get(kioskId)?.location,
            });
        const { currentPoints, totalPoints, recycledCount, earnedByDay } = latest;
        const pointsByMonth = held
          ? user.pointsByMonth
          : changePoints(user.pointsByMonth, latest.pointsEarned, addedIn);
        const heldPoints = user.heldPoints + (held ? latest.pointsEarned : 0);
        const itemsByDay = itemsByDayAfter(user.itemsByDay, award.deposit, read.origin.oldestAcceptedDay);
        user = {
          ...user,
          currentPoints,
          totalPoints,
          recycledCount,
          earnedByDay,
          pointsByMonth,
          heldPoints,
          itemsByDay,
        };
        return { outcome: { result: transaction, replayed: false } };
      } catch (error) {
        if (error instanceof ApiError) return { error };
        throw error;
      }
    });
    if (latest && user) {
      budgets.stage(batch);
      profile.stageFigures(batch, {
        ...pointsModel(user.pointsByMonth),
        currentPoints: latest.currentPoints,
        totalPoints: latest.totalPoints,
        recycledCount: latest.recycledCount,
        rank: latest.rank,
        earnedByDay: latest.earnedByDay,
        heldPoints: user.heldPoints,
        itemsByDay: user.itemsByDay,
        ...risk.userFigures(),
      });
      risk.stage(batch, new Date());
    }
    return { result: settled, commit: latest !== undefined };
  });
}

function logOutcome({ result: { transaction }, replayed }: AwardOutcome): void {
  logInfo(replayed ? 'transaction_replayed' : 'transaction_awarded', {
    transactionId: transaction.id,
    kioskId: transaction.kioskId,
    userId: transaction.userId,
    pointsEarned: transaction.pointsEarned,
    capped: transaction.capped,
  });
}
