import { randomUUID } from 'node:crypto';
import { logInfo } from '../log';
import { commitOnFreshReads, contention, db } from '../adapters/firestore';
import { capWindowDays, claimValidDays, offlineWindowDays } from '../config';
import { depositKioskFromSnapshot, kioskClockFromSnapshot, kiosksCollection, reportInvalidKiosk } from '../data/kiosks';
import { activePromotions } from '../data/promotions';
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
import { computeAward, pointsFor, type Award, type RewardsConfig } from '../domain/rewards';
import { heldAward, type RiskConfig } from '../domain/risk';
import { depositWorth, type DepositSetting } from '../domain/promotions';
import { changePoints, monthOf } from '../domain/pointsExpiry';
import { settleInOrder, type Settled } from '../domain/settleInOrder';
import { ApiError, conflict, notFound, overloaded } from '../errors';
import { planAward, recordedAnswer, stageAward, type AwardOutcome, type PlannedAward } from './awardRecord';
import {
  claimAnswered,
  claimReads,
  inHoldOrder,
  recordedHoldReasons,
  stageClaimed,
  stageUnclaimed,
  type PlannedClaim,
} from './claimAward';
import { transactionsCollection } from '../data/transactions';
import type { ClaimedDeposit } from '../data/claims';
import { profileToAward } from './provisioning';
import { itemsByDayAfter, riskReads, startRiskJudging } from './risk';
import { readWithBudgets } from './promotionBudgets';
import type { KioskStatus } from '../model/vocabulary';

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

/** Where deposits came from, and what only a deposit not recorded yet must pass. */
export interface AwardOrigin {
  /** The kiosk key that sent them. */
  apiKeyId: string;
  /** The first UTC day a deposit may still arrive (or be claimed, §18) for: earlier days' earnings are forgotten. */
  oldestAcceptedDay: string;
  /** Throws an ApiError for a new deposit the service must refuse; a retry is answered from its record first. */
  checkIfNew?: (deposit: Deposit) => void;
}

/**
 * Awards to one user commit one at a time within this instance. Concurrent awards
 * to one user would otherwise race: all but one lose the precondition, re-read and
 * try again, which `npm run bench` measured halving an instance's throughput when
 * ~6 awards per user are in flight (10 users, 64 connections). Across instances
 * the precondition decides; outcomes are the same either way.
 */
const oneAtATimePerUser = createKeyedQueue();
/** How soon a kiosk whose record an operator must repair is asked to try again. */
const KIOSK_REPAIR_RETRY_SECONDS = 300;

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
 * the kiosks and the active promotions (§16, read fresh, side by side with the rest), once each.
 */
async function readShared(kioskIds: string[]) {
  const [config, [riskSnap, ...kioskSnaps], promotions] = await Promise.all([
    loadRewardsConfig(),
    db().getAll(riskConfigRef(), ...kioskIds.map((kioskId) => kiosksCollection().doc(kioskId))),
    activePromotions(),
  ]);
  return {
    config,
    limits: riskConfigFromSnapshot(riskSnap),
    kiosks: new Map(kioskSnaps.map((snap) => [snap.id, depositKioskFromSnapshot(snap)])),
    clocks: new Map(kioskSnaps.map((snap) => [snap.id, kioskClockFromSnapshot(snap)])),
    promotions: { current: promotions },
  };
}

/** What an award has read before its commit (readShared's), and where its deposits came from. */
type AwardReads = Awaited<ReturnType<typeof readShared>> & { origin: AwardOrigin };

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
async function awardToUser(userId: string, awards: PlannedAward[], read: AwardReads): Promise<Settled<AwardOutcome>[]> {
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
  const settingOf = ({ deposit }: PlannedAward) => depositSetting(deposit, read.clocks);

  return commitOnFreshReads(async (batch) => {
    // The promotions' budget shards are read with the user, in the same round trip (§16).
    const { snapshots, budgets } = await readWithBudgets(
      read.promotions,
      refs,
      awards.filter(({ deposit }) => read.kiosks.get(deposit.kioskId)).map(settingOf),
      userId,
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
          ? stageClaimed(batch, { ...award, claim: award.claim }, recorded!, latest, origin)
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

/**
 * Anonymous deposits (§18) in one atomic commit: each recorded as any deposit (a
 * retry answered from its record, the origin's and the kiosk's checks), worth its
 * points now, credited to nobody: its claim code waits for a claim (awardClaim).
 */
async function recordAnonymous(awards: PlannedAward[], read: AwardReads): Promise<Settled<AwardOutcome>[]> {
  const submissionId = randomUUID();
  const validDays = claimValidDays();
  // One kiosk's (anonymousGroup): its id picks the budget shards its promotions take from (promotionBudgets.ts).
  const { kioskId } = awards[0].deposit;
  const known = awards.filter(({ deposit }) => read.kiosks.get(deposit.kioskId));
  return commitOnFreshReads(async (batch) => {
    // Trust (§17): its items count towards its kiosk's limit now; its claimer's limits are judged at the claim.
    const kioskLimit = { ...read.limits, userItemsPerDay: null, travelKmh: null };
    const windowRefs = riskReads(
      kioskLimit,
      awards.map(({ deposit }) => deposit),
    );
    const { snapshots, budgets } = await readWithBudgets(
      read.promotions,
      [...awards.map(({ transactionRef }) => transactionRef), ...windowRefs],
      known.map(({ deposit }) => depositSetting(deposit, read.clocks)),
      kioskId,
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
        const { plasticCount, metalCount } = award.deposit;
        const kiosk = read.kiosks.get(kioskId);
        if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
        assertTakesDeposits(kioskId, kiosk.status);
        // Its worth now, promotions included and their budgets spent; the cap is its claimer's, when claimed.
        const base = pointsFor(read.config, plasticCount, metalCount);
        const applying = budgets.applying(depositSetting(award.deposit, read.clocks));
        const { breakdown } = depositWorth(base, applying, Number.POSITIVE_INFINITY);
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

/** Where and when a deposit was made, as the promotions judge it (§16). */
const depositSetting = (deposit: Deposit, clocks: Map<string, DepositSetting['kiosk']>): DepositSetting => ({
  kioskId: deposit.kioskId,
  totalItems: deposit.plasticCount + deposit.metalCount,
  occurredAt: deposit.happenedAt,
  kiosk: clocks.get(deposit.kioskId)!,
});

/**
 * A claim (§18): the anonymous deposit `claimed` awarded to `userId` as their deposit
 * of when it happened, through the very path of a deposit's award (awardToUser): the
 * daily cap of its `occurredAt` day, the `earn` entry, `recycledCount`, the webhook
 * event, one commit at a time per user.
 */
export async function awardClaim(
  userId: string,
  { transactionId, kioskId, plasticCount, metalCount, occurredAt }: ClaimedDeposit,
  claim: PlannedClaim,
  { config, limits }: { config: RewardsConfig; limits: RiskConfig },
): Promise<AwardOutcome> {
  const award: PlannedAward = {
    deposit: { kioskId, userId, plasticCount, metalCount, happenedAt: occurredAt },
    fingerprint: claim.fingerprint,
    transactionRef: transactionsCollection().doc(transactionId),
    claim,
  };
  // The key of the deposit's kiosk is the transaction's own: a claim records no kiosk key.
  const origin = { apiKeyId: '', oldestAcceptedDay: oldestAcceptedDay(new Date(), capWindowDays()) };
  const [settled] = await oneAtATimePerUser(userId, () =>
    awardToUser(userId, [award], {
      config,
      limits,
      kiosks: new Map(),
      clocks: new Map(),
      promotions: { current: [] },
      origin,
    }),
  );
  if ('error' in settled) throw settled.error;
  return settled.outcome;
}

/**
 * A kiosk with a status broken by hand may or may not be meant to take deposits (its
 * other fields do not matter to an award): refused whole, and retryable, so the kiosk
 * keeps the deposit and sends it again once an operator has mended it.
 */
function assertTakesDeposits(kioskId: string, status: KioskStatus | undefined): void {
  if (status === undefined) {
    reportInvalidKiosk(kioskId, ['status']);
    throw new ApiError(
      'kiosk-misconfigured',
      `Kiosk ${kioskId} cannot accept transactions until an operator repairs its record; nothing was awarded`,
      { retryAfterSeconds: KIOSK_REPAIR_RETRY_SECONDS },
    );
  }
  if (status !== 'available') {
    throw conflict(`Kiosk ${kioskId} is ${status} and cannot accept transactions`, 'kiosk-unavailable');
  }
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
