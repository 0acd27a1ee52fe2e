import { FieldValue } from 'firebase-admin/firestore';
import type { CloudFunction } from 'firebase-functions/v1';
import { pushTransport } from '../../src/adapters/push';
import { upsertReward } from '../../src/data/rewards';
import { addDays, addMonths, expiryDay, monthOf, type Day } from '../../src/domain/pointsExpiry';
import { pointsExpiry } from '../../src/index';
import { adjustBalance } from '../../src/services/adjustBalance';
import { utcDay } from '../../src/domain/rewards';
import { auditBooks } from '../../src/services/audit';
import { openBalance } from '../../src/services/ledgerBooks';
import { runExpiry } from '../../src/services/pointsExpiry';
import { cancelRedemption, redeemReward } from '../../src/services/redemptions';
import { admin, cli, runCli } from './cli-runner';
import { injectCommitFaults, writesDocument } from './commit-faults';
import { db, functionsTestEnv, resetEmulators, waitForKioskCount } from './helpers';
import { bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

const testEnv = functionsTestEnv();
// firebase-functions-test runs a 2nd gen scheduled function as its own scheduled wrapper, untyped for one.
const scheduledExpiry = testEnv.wrap(
  pointsExpiry as unknown as CloudFunction<unknown>,
) as unknown as () => Promise<void>;

beforeEach(resetEmulators);

const THIS_MONTH = monthOf(new Date());
/** With N = 1, points added this month are valid through the day before this one. */
const EXPIRES_ON = expiryDay(THIS_MONTH, 1);

const expireAfter = (months: number | null) => db().doc('config/rewards').set({ pointsExpireAfterMonths: months });
const run = (asOf: Day) => runExpiry(asOf, pushTransport());
const userDoc = async (userId: string) => (await db().doc(`users/${userId}`).get()).data()!;
const expireEntries = async (userId: string) =>
  (await db().collection('ledger').where('userId', '==', userId).where('kind', '==', 'expire').get()).docs.map(
    (doc) => ({ id: doc.id, ...doc.data() }),
  );
const viewOf = async (userId: string) =>
  (await call('GET', `/user/${userId}`, { headers: await bearerFor(userId) })).body.user;

async function expectBooksBalanced() {
  expect((await auditBooks()).differences).toEqual([]);
}

/**
 * A deposit of 2 plastic and 1 metal item (40 points) through the API, to `userId`,
 * counted on its kiosk before it returns: the audit compares kiosk counters with
 * transactions, and the trigger counts them after the answer.
 */
async function deposit(userId: string) {
  const { kioskId, apiKey } = await seedKioskWithKey();
  const res = await call('POST', '/kiosk/transaction', {
    body: { kioskId, userId, plasticCount: 2, metalCount: 1 },
    headers: { 'x-api-key': apiKey },
  });
  expect(res.status).toBe(200);
  await waitForKioskCount(kioskId, 3);
}

/** A user whose `points` are split over earlier months as given (their opening balance in the ledger). */
async function userWithPointsFrom(pointsByMonth: Record<string, number>, pushToken?: string) {
  const points = Object.values(pointsByMonth).reduce((sum, each) => sum + each, 0);
  const userId = await seedUser({ currentPoints: points, totalPoints: points, pushToken });
  await openBalance(userId, 'test');
  const oldest = Object.keys(pointsByMonth).sort()[0];
  await db().doc(`users/${userId}`).update({ pointsByMonth, pointsOldestMonth: oldest });
  return userId;
}

describe('points that expire (contract §14)', () => {
  test('valid through the last day of the month N months after they were added; gone the day after, once', async () => {
    await expireAfter(1);
    const userId = await seedUser();
    await deposit(userId);
    expect(await userDoc(userId)).toMatchObject({ pointsByMonth: { [THIS_MONTH]: 40 }, pointsOldestMonth: THIS_MONTH });
    expect((await viewOf(userId)).expiringPoints).toEqual({ points: 40, expiresAt: `${EXPIRES_ON}T00:00:00.000Z` });

    const lastDay = addDays(EXPIRES_ON, -1);
    expect((await run(lastDay)).expired).toEqual({ users: 0, points: 0 });
    expect(await expireEntries(userId)).toEqual([]);

    expect((await run(EXPIRES_ON)).expired).toEqual({ users: 1, points: 40 });
    const user = await userDoc(userId);
    expect({ current: user.currentPoints, total: user.totalPoints, rank: user.rank }).toEqual({
      current: 0,
      total: 40,
      rank: 'Bronze',
    });
    expect(user.pointsByMonth).toEqual({});
    expect(user.pointsOldestMonth).toBeNull();
    const view = await viewOf(userId);
    expect({ totalPoints: view.totalPoints, rank: view.rank, expiringPoints: view.expiringPoints }).toEqual({
      totalPoints: 40,
      rank: 'Bronze',
      expiringPoints: null,
    });

    // The history shows the entry, as the API describes it.
    const history = await call('GET', `/user/${userId}/history`, { headers: await bearerFor(userId) });
    expect(history.body.entries[0]).toMatchObject({ kind: 'expire', points: -40, balanceAfter: 0 });
    expect(history.body.entries[0].reason).toContain(`valid through ${addDays(EXPIRES_ON, -1)}`);

    // Later days of the month find nothing more.
    expect((await run(addDays(EXPIRES_ON, 1))).expired).toEqual({ users: 0, points: 0 });
    expect(await expireEntries(userId)).toHaveLength(1);
    await expectBooksBalanced();
  });

  test('rank and totalPoints stay where an expiry takes a Silver balance', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [addMonths(THIS_MONTH, -2)]: 1200 });
    expect((await run(`${THIS_MONTH}-01`)).expired).toEqual({ users: 1, points: 1200 });
    expect(await viewOf(userId)).toMatchObject({ currentPoints: 0, totalPoints: 1200, rank: 'Silver' });
    await expectBooksBalanced();
  });

  test('spending takes the soonest-expiring points first, across earn, redeem, refund and adjust', async () => {
    // N = 2: every month here is still valid today (points past their date are never spent).
    await expireAfter(2);
    const [older, old] = [addMonths(THIS_MONTH, -2), addMonths(THIS_MONTH, -1)];
    const userId = await userWithPointsFrom({ [older]: 100, [old]: 200 });
    await upsertReward({ id: 'coffee', name: 'Coffee', cost: 150, kind: 'voucher', stock: null });

    await deposit(userId);
    expect((await userDoc(userId)).pointsByMonth).toEqual({ [older]: 100, [old]: 200, [THIS_MONTH]: 40 });
    const { redemption } = await redeemReward(userId, 'coffee', uniqueId('key'));
    expect((await userDoc(userId)).pointsByMonth).toEqual({ [old]: 150, [THIS_MONTH]: 40 });
    await adjustBalance(userId, { points: -30, reason: 'counted twice', by: 'test' });
    expect((await userDoc(userId)).pointsByMonth).toEqual({ [old]: 120, [THIS_MONTH]: 40 });
    // Refunded and added points count from the month they come back in.
    await cancelRedemption(redemption.id, 'café closed', 'test');
    await adjustBalance(userId, { points: 10, reason: 'goodwill', by: 'test' });
    const user = await userDoc(userId);
    expect(user.pointsByMonth).toEqual({ [old]: 120, [THIS_MONTH]: 200 });
    expect({ current: user.currentPoints, oldest: user.pointsOldestMonth }).toEqual({ current: 320, oldest: old });
    await expectBooksBalanced();

    // Last month's points are valid through the end of next month; this month's through the one after.
    expect((await run(expiryDay(old, 2))).expired).toEqual({ users: 1, points: 120 });
    expect((await userDoc(userId)).currentPoints).toBe(200);
    expect((await run(expiryDay(THIS_MONTH, 2))).expired).toEqual({ users: 1, points: 200 });
    expect((await userDoc(userId)).currentPoints).toBe(0);
    await expectBooksBalanced();
  });

  test('a run twice and two runs at once write one entry per user and date', async () => {
    await expireAfter(1);
    const users = await Promise.all([1, 2, 3].map(() => userWithPointsFrom({ [addMonths(THIS_MONTH, -2)]: 70 })));
    const asOf = `${THIS_MONTH}-01`;
    const [cliRun, inProcess] = await Promise.all([admin('expiry:run', '--as-of', asOf), run(asOf)]);
    expect(JSON.parse(cliRun).expired.points + inProcess.expired.points).toBe(210);
    expect((await run(asOf)).expired).toEqual({ users: 0, points: 0 });
    for (const userId of users) {
      const entries = await expireEntries(userId);
      expect(entries).toEqual([
        expect.objectContaining({ id: `expire-${userId}-${asOf}`, points: -70, balanceAfter: 0 }),
      ]);
      // Its webhook event (§13), once, with the entry as the history shows it.
      const events = await db().collection('webhookEvents').where('subjectId', '==', `expire-${userId}-${asOf}`).get();
      expect(events.docs.map((doc) => doc.get('type'))).toEqual(['points.expired']);
      expect(JSON.parse(events.docs[0].get('body')).data).toMatchObject({ kind: 'expire', points: -70, userId });
    }
    await expectBooksBalanced();
  });

  test('a reminder 30 days before the date, once: one notification and one push', async () => {
    await expireAfter(1);
    const token = `phone-${uniqueId('expiring')}`;
    const userId = await seedUser({ pushToken: token });
    await deposit(userId);
    const reminders = async () => ({
      notifications: (
        await db().collection(`users/${userId}/notifications`).where('type', '==', 'points-expiring').get()
      ).docs.map((doc) => doc.data()),
      pushes: (await db().collection('pushOutbox').where('message.token', '==', token).get()).docs.filter(
        (doc) => doc.get('message.data.type') === 'points-expiring',
      ).length,
    });

    expect((await run(addDays(EXPIRES_ON, -31))).reminded).toBe(0);
    expect(await reminders()).toEqual({ notifications: [], pushes: 0 });

    const remindOn = addDays(EXPIRES_ON, -30);
    await Promise.all([run(remindOn), run(remindOn)]);
    await run(addDays(EXPIRES_ON, -29));
    await admin('expiry:run', '--as-of', remindOn);
    const told = await reminders();
    expect(told.pushes).toBe(1);
    expect(told.notifications).toEqual([
      expect.objectContaining({
        type: 'points-expiring',
        data: expect.objectContaining({ points: '40', lastValidDay: addDays(EXPIRES_ON, -1) }),
      }),
    ]);
    const reminder = await db().doc(`expiryReminders/${userId}_${EXPIRES_ON}`).get();
    expect(reminder.get('effects.push.status')).toBe('sent');
    expect(reminder.get('effectsPending')).toBeUndefined();
  });

  test('null means never: nothing is read or expired, and the view shows no expiring points', async () => {
    const userId = await userWithPointsFrom({ '2001-01': 500 });
    expect(await run('2099-12-31')).toMatchObject({ usersRead: 0, expired: { users: 0, points: 0 }, reminded: 0 });
    await expireAfter(null);
    expect((await run('2099-12-31')).usersRead).toBe(0);
    expect(await viewOf(userId)).toMatchObject({ currentPoints: 500, expiringPoints: null });
  });

  test('the run reads only users with points expiring soon, not every user', async () => {
    await expireAfter(1);
    await Promise.all([1, 2, 3, 4].map(() => userWithPointsFrom({ [THIS_MONTH]: 10 })));
    await seedUser();
    const due = await userWithPointsFrom({ [addMonths(THIS_MONTH, -2)]: 10 });
    expect(await run(`${THIS_MONTH}-02`)).toMatchObject({ usersRead: 1, expired: { users: 1, points: 10 } });
    expect((await userDoc(due)).currentPoints).toBe(0);
  });

  test('the daily scheduled function runs for today', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [addMonths(THIS_MONTH, -2)]: 25, [THIS_MONTH]: 5 });
    await scheduledExpiry();
    const today = new Date().toISOString().slice(0, 10);
    expect(await expireEntries(userId)).toEqual([
      expect.objectContaining({ id: `expire-${userId}-${today}`, points: -25, balanceAfter: 5 }),
    ]);
    await expectBooksBalanced();
  });

  test('a profile from before the model: its balance counts from this month, and migrate stamps it', async () => {
    await expireAfter(3);
    const userId = await userWithPointsFrom({ [THIS_MONTH]: 70 });
    await db()
      .doc(`users/${userId}`)
      .update({ pointsByMonth: FieldValue.delete(), pointsOldestMonth: FieldValue.delete() });
    expect((await viewOf(userId)).expiringPoints).toEqual({
      points: 70,
      expiresAt: `${expiryDay(THIS_MONTH, 3)}T00:00:00.000Z`,
    });
    await expectBooksBalanced();

    const migrated = JSON.parse(await admin('migrate', '--apply'));
    expect(migrated.usersWithoutPointsByMonth).toBe(1);
    expect(await userDoc(userId)).toMatchObject({ pointsByMonth: { [THIS_MONTH]: 70 }, pointsOldestMonth: THIS_MONTH });
    expect(JSON.parse(await admin('migrate')).usersWithoutPointsByMonth).toBe(0);
    await expectBooksBalanced();
  });

  test('the audit reports a model out of step with currentPoints', async () => {
    const userId = await userWithPointsFrom({ [THIS_MONTH]: 70 });
    await db()
      .doc(`users/${userId}`)
      .update({ pointsByMonth: { [THIS_MONTH]: 60 } });
    expect((await auditBooks()).differences).toEqual([`user ${userId}: pointsByMonth sums to 60, currentPoints is 70`]);
  });

  test('rewards:set --expire-after-months sets N or none; other values are refused', async () => {
    expect(JSON.parse(await admin('rewards:set', '--expire-after-months', '12')).pointsExpireAfterMonths).toBe(12);
    expect((await db().doc('config/rewards').get()).get('pointsExpireAfterMonths')).toBe(12);
    expect(JSON.parse(await admin('rewards:set', '--expire-after-months', 'none')).pointsExpireAfterMonths).toBeNull();
    for (const value of ['0', '121', 'soon']) {
      const refused = await cli('rewards:set', '--expire-after-months', value);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('pointsExpireAfterMonths');
    }
    expect((await cli('expiry:run', '--as-of', '2027-02-30')).code).toBe(2);
  });
});

describe('expired points are never spent (contract Part four)', () => {
  /** With N = 1, points of this month three months ago expired on the 1st of last month. */
  const LONG_AGO = addMonths(THIS_MONTH, -3);
  const today = () => utcDay(new Date());
  const historyOf = async (userId: string) =>
    (await call('GET', `/user/${userId}/history`, { headers: await bearerFor(userId) })).body.entries.map(
      (entry: { kind: string; points: number; balanceAfter: number }) => [entry.kind, entry.points, entry.balanceAfter],
    );

  test('a redemption after the date writes that date’s expire entry first, under the run’s id, then spends what is left', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [LONG_AGO]: 100, [THIS_MONTH]: 50 });
    await upsertReward({ id: 'cinema', name: 'Cinema', cost: 120, kind: 'donation', stock: null });
    await upsertReward({ id: 'coffee', name: 'Coffee', cost: 30, kind: 'donation', stock: null });

    // 150 points stored, 50 still valid: refused, and nothing is written, the expiry neither.
    await expect(redeemReward(userId, 'cinema', uniqueId('key'))).rejects.toMatchObject({
      code: 'insufficient-points',
    });
    expect(await expireEntries(userId)).toEqual([]);

    expect((await redeemReward(userId, 'coffee', uniqueId('key'))).newBalance).toBe(20);
    expect(await expireEntries(userId)).toEqual([
      expect.objectContaining({ id: `expire-${userId}-${today()}`, points: -100, balanceAfter: 50 }),
    ]);
    expect(await userDoc(userId)).toMatchObject({ currentPoints: 20, pointsByMonth: { [THIS_MONTH]: 20 } });
    expect(await historyOf(userId)).toEqual([
      ['redeem', -30, 20],
      ['expire', -100, 50],
      ['adjust', 150, 150],
    ]);
    // The day's run finds the expiry written: nothing more.
    expect((await run(today())).expired).toEqual({ users: 0, points: 0 });
    expect(await expireEntries(userId)).toHaveLength(1);
    await expectBooksBalanced();
  });

  test('a negative adjustment after the date likewise; a positive one spends nothing and writes no expiry', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [LONG_AGO]: 100, [THIS_MONTH]: 50 });
    await adjustBalance(userId, { points: 5, reason: 'goodwill', by: 'test' });
    expect(await expireEntries(userId)).toEqual([]);

    await expect(adjustBalance(userId, { points: -60, reason: 'counted twice', by: 'test' })).rejects.toMatchObject({
      code: 'insufficient-points',
    });
    expect(await expireEntries(userId)).toEqual([]);
    const { adjustment, user } = await adjustBalance(userId, { points: -20, reason: 'counted twice', by: 'test' });
    expect({ balanceAfter: adjustment.balanceAfter, current: user.currentPoints }).toEqual({
      balanceAfter: 35,
      current: 35,
    });
    expect(await historyOf(userId)).toEqual([
      ['adjust', -20, 35],
      ['expire', -100, 55],
      ['adjust', 5, 155],
      ['adjust', 150, 150],
    ]);
    expect((await run(today())).expired).toEqual({ users: 0, points: 0 });
    await expectBooksBalanced();
  });

  test('GET /user/{id} never shows a date in the past: the next date of the points still valid', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [LONG_AGO]: 100, [THIS_MONTH]: 50 });
    expect((await viewOf(userId)).expiringPoints).toEqual({ points: 50, expiresAt: `${EXPIRES_ON}T00:00:00.000Z` });
  });

  test('a user whose settling fails is taken again in the same run, not a day later', async () => {
    await expireAfter(1);
    const userId = await userWithPointsFrom({ [LONG_AGO]: 100, [THIS_MONTH]: 50 });
    const PERMISSION_DENIED = 7;
    const fault = injectCommitFaults(db(), writesDocument(`users/${userId}`), 1, PERMISSION_DENIED);
    try {
      const outcome = await run(today());
      expect(fault.injected()).toBe(1);
      expect(outcome).toMatchObject({ expired: { users: 1, points: 100 }, retried: 1, failed: 0 });
    } finally {
      fault.restore();
    }
    expect((await userDoc(userId)).currentPoints).toBe(50);
    await expectBooksBalanced();
  });
});

describe('lowering the expiry setting never surprises anyone (contract Part four)', () => {
  test('set or lowered: nothing expires for 30 days, and that date gets its reminder', async () => {
    await expireAfter(12);
    const today = utcDay(new Date());
    const notBefore = addDays(today, 30);
    const old = addMonths(THIS_MONTH, -3);
    const userId = await userWithPointsFrom({ [old]: 100, [THIS_MONTH]: 50 });
    await admin('rewards:set', '--expire-after-months', '1');

    // Under N = 1 the old points are past their date, yet nothing expires before `notBefore`.
    expect(await run(today)).toMatchObject({ expired: { users: 0, points: 0 }, reminded: 1 });
    expect(await run(addDays(notBefore, -1))).toMatchObject({ expired: { users: 0, points: 0 } });
    // This month's points join them where their own date is not later.
    const dueThen = 100 + (EXPIRES_ON <= notBefore ? 50 : 0);
    expect((await viewOf(userId)).expiringPoints).toEqual({ points: dueThen, expiresAt: `${notBefore}T00:00:00.000Z` });
    const reminder = await db().doc(`expiryReminders/${userId}_${notBefore}`).get();
    expect(reminder.get('points')).toBe(dueThen);
    expect((await db().doc('config/rewards').get()).data()).toMatchObject({
      pointsExpireAfterMonths: 1,
      pointsExpireNotBefore: notBefore,
    });

    expect((await run(notBefore)).expired).toEqual({ users: 1, points: dueThen });
    await expectBooksBalanced();
    // Raised later, the dates only move on: the day stays.
    await admin('rewards:set', '--expire-after-months', '6');
    expect((await db().doc('config/rewards').get()).get('pointsExpireNotBefore')).toBe(notBefore);
  });
});

describe('expiry:run --as-of never expires the future by accident (contract Part four)', () => {
  test('a day after today is refused against a real project without --force; the emulators take any day', async () => {
    const realProject = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.endsWith('_EMULATOR_HOST')),
    );
    const tomorrow = addDays(utcDay(new Date()), 1);
    const refused = await runCli(['--project', 'kiosk-rewards-prod', 'expiry:run', '--as-of', tomorrow], realProject);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`refused: --as-of ${tomorrow} is after today`);
    expect(refused.stderr).toContain('add --force');
    expect(refused.stdout).toBe('');

    expect(JSON.parse(await admin('expiry:run', '--as-of', '2099-01-01')).asOf).toBe('2099-01-01');
  });
});
