import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { logInfo } from '../log';
import { commitOnFreshReads, contention, db } from '../adapters/firestore';
import { depositKioskFromSnapshot, kiosksCollection, reportInvalidKiosk } from '../data/kiosks';
import { loadRewardsConfig } from '../data/rewardsConfig';
import { usersCollection } from '../data/users';
import type { KioskStatus } from '../domain/kiosk';
import { createKeyedQueue } from '../domain/keyedQueue';
import { computeAward, type Award, type RewardsConfig } from '../domain/rewards';
import { ApiError, conflict, notFound, overloaded } from '../errors';
import {
  legacyAnswer,
  planAward,
  recordedAnswer,
  stageAward,
  type AwardOutcome,
  type DepositToAward,
  type PlannedAward,
} from './awardRecord';
import { profileToAward } from './provisioning';

export type { AwardOutcome, DepositToAward } from './awardRecord';

/** Where a deposit came from: the kiosk key, and the first UTC day a deposit may still arrive for. */
export interface AwardOrigin {
  apiKeyId: string;
  oldestAcceptedDay: string;
}

/** What became of one deposit: its outcome, or why it has none (an ApiError, or an unexpected failure). */
export type SettledAward = { outcome: AwardOutcome } | { error: unknown };

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

type DepositKiosk = ReturnType<typeof depositKioskFromSnapshot>;

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
export async function awardTransactions(items: DepositToAward[], origin: AwardOrigin): Promise<SettledAward[]> {
  if (items.length === 0) return [];
  const planned = items.map(planAward);
  const kioskIds = [...new Set(items.map(({ deposit }) => deposit.kioskId))];
  // Failing here fails every deposit alike, each with its own result (a batch never fails whole).
  const shared = await readShared(kioskIds).catch((error: unknown) => ({ error }));
  if ('error' in shared) return items.map(() => ({ error: shared.error }));
  const settled: SettledAward[] = new Array(items.length);
  const arrivedAt = Date.now();
  for (const round of roundsOf(planned)) {
    const byUser = new Map<string, number[]>();
    for (const index of round) {
      const userId = items[index].deposit.userId;
      byUser.set(userId, [...(byUser.get(userId) ?? []), index]);
    }
    await Promise.all(
      [...byUser].map(async ([userId, indices]) => {
        const awards = indices.map((index) => planned[index]);
        const outcomes = await oneAtATimePerUser(userId, () => {
          // Waiting longer than contention may last is overload: given up before anything is read or written.
          if (Date.now() - arrivedAt > contention.deadlineMs) throw overloaded();
          return awardToUser(userId, awards, { ...shared, origin });
        }).catch((error: unknown) => indices.map(() => ({ error })));
        indices.forEach((index, n) => (settled[index] = outcomes[n]));
      }),
    );
  }
  for (const each of settled) if ('outcome' in each) logOutcome(each.outcome);
  return settled;
}

/** What every deposit's award reads alike: the rewards config and the kiosks, once each. */
async function readShared(kioskIds: string[]) {
  const [config, kioskSnaps] = await Promise.all([
    loadRewardsConfig(),
    db().getAll(...kioskIds.map((kioskId) => kiosksCollection().doc(kioskId))),
  ]);
  return { config, kiosks: new Map(kioskSnaps.map((snap) => [snap.id, depositKioskFromSnapshot(snap)])) };
}

/** Rounds of deposit indexes in which no transaction id appears twice: a key's k-th occurrence is in round k. */
function roundsOf(planned: PlannedAward[]): number[][] {
  const rounds: number[][] = [];
  const occurrences = new Map<string, number>();
  planned.forEach(({ transactionRef }, index) => {
    const round = occurrences.get(transactionRef.id) ?? 0;
    occurrences.set(transactionRef.id, round + 1);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
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
async function awardToUser(
  userId: string,
  awards: PlannedAward[],
  read: { config: RewardsConfig; kiosks: Map<string, DepositKiosk>; origin: AwardOrigin },
): Promise<SettledAward[]> {
  const submissionId = randomUUID();
  const userRef = usersCollection().doc(userId);
  const refs = [
    userRef,
    ...awards.flatMap(({ transactionRef, legacyRef }) => [transactionRef, legacyRef ?? []].flat()),
  ];

  return commitOnFreshReads(async (batch) => {
    const [userSnap, ...snaps] = await db().getAll(...refs);
    const snapOf = new Map(snaps.map((snap) => [snap.ref.path, snap]));
    const profile = await profileToAward(userSnap, read.config);
    let user = profile.user;
    let latest: Award | undefined;
    const settled = awards.map((award): SettledAward => {
      const recorded = snapOf.get(award.transactionRef.path);
      const legacy = award.legacyRef && snapOf.get(award.legacyRef.path);
      try {
        if (recorded?.exists) return { outcome: recordedAnswer(award, recorded, submissionId) };
        if (legacy?.exists) return { outcome: legacyAnswer(award, legacy) };
        award.checkIfNew?.();
        const { kioskId, plasticCount, metalCount, happenedAt } = award.deposit;
        const kiosk = read.kiosks.get(kioskId);
        if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
        if (!user) throw notFound(`User ${userId} not found`);
        assertTakesDeposits(kioskId, kiosk.status);
        latest = computeAward(
          read.config,
          user,
          { plasticCount, metalCount },
          happenedAt,
          read.origin.oldestAcceptedDay,
        );
        const transaction = stageAward(batch, award, latest, {
          submissionId,
          apiKeyId: read.origin.apiKeyId,
          pushQueued: user.pushToken !== undefined,
        });
        const { currentPoints, totalPoints, recycledCount, earnedByDay } = latest;
        user = { ...user, currentPoints, totalPoints, recycledCount, earnedByDay };
        return { outcome: { result: transaction, replayed: false } };
      } catch (error) {
        if (error instanceof ApiError) return { error };
        throw error;
      }
    });
    if (latest) {
      profile.stageFigures(batch, {
        currentPoints: latest.currentPoints,
        totalPoints: latest.totalPoints,
        recycledCount: latest.recycledCount,
        rank: latest.rank,
        earnedByDay: latest.earnedByDay,
        earnedToday: FieldValue.delete(),
      });
    }
    return { result: settled, commit: latest !== undefined };
  });
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
      503,
      'kiosk-misconfigured',
      `Kiosk ${kioskId} cannot accept transactions until an operator repairs its record; nothing was awarded`,
      { 'Retry-After': String(KIOSK_REPAIR_RETRY_SECONDS) },
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
