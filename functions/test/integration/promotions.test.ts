import { auditBooks } from '../../src/services/audit';
import { awardTransactions } from '../../src/services/deposits';
import { injectCommitFaults, writesTo } from './commit-faults';
import { webhookEventsCollection } from '../../src/data/webhookEvents';
import { db, resetEmulators, waitForKioskCount } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';
import { admin, cli } from './cli-runner';

/* Promotions (contract §16), every rule through the API on the emulators. */

beforeEach(async () => {
  itemsSent.clear();
  await resetEmulators();
});

type Body = Record<string, unknown>;

const setPromotion = async (body: Body) => call('POST', '/admin/promotions', { body, headers: await adminHeaders() });
const listPromotions = async () =>
  (await call('GET', '/admin/promotions', { headers: await adminHeaders() })).body.promotions as Body[];
const givenBy = async (id: string) => (await listPromotions()).find((promotion) => promotion.id === id)!.pointsGiven;
/** Items sent per kiosk, so that the audit waits for the kiosks' counters (a trigger's) before it judges them. */
const itemsSent = new Map<string, number>();
const deposit = (apiKey: string, body: Body, headers: Record<string, string> = {}) => {
  const items = Number(body.plasticCount) + Number(body.metalCount);
  itemsSent.set(String(body.kioskId), (itemsSent.get(String(body.kioskId)) ?? 0) + items);
  return call('POST', '/kiosk/transaction', { body, headers: { 'x-api-key': apiKey, ...headers } });
};
/** The audit's differences once every kiosk counts what was sent to it. */
async function auditDifferences(): Promise<string[]> {
  for (const [kioskId, items] of itemsSent) if (items > 0) await waitForKioskCount(kioskId, items);
  return (await auditBooks()).differences;
}

/** The last `weekday` (0 Sunday … 6 Saturday) at 12:00 UTC that is at least an hour past. */
function lastWeekday(weekday: number): Date {
  const at = new Date(Date.now() - 3_600_000);
  at.setUTCHours(12, 0, 0, 0);
  if (at.getTime() > Date.now() - 3_600_000) at.setUTCDate(at.getUTCDate() - 1);
  while (at.getUTCDay() !== weekday) at.setUTCDate(at.getUTCDate() - 1);
  return at;
}

const sumOf = (breakdown: { points: number }[]) => breakdown.reduce((sum, entry) => sum + entry.points, 0);

describe('POST and GET /admin/promotions', () => {
  test('creates (201) with defaults, replaces (200) keeping createdAt and pointsGiven', async () => {
    const created = await setPromotion({ id: 'double', name: 'Double points', multiplier: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      promotion: {
        id: 'double',
        name: 'Double points',
        active: true,
        startsAt: null,
        endsAt: null,
        hours: null,
        kioskIds: null,
        minItems: null,
        multiplier: 2,
        bonusPoints: null,
        budgetPoints: null,
        pointsGiven: 0,
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      },
    });
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    expect((await deposit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 })).status).toBe(200);

    const replaced = await setPromotion({
      id: 'double',
      name: 'Bonus now',
      bonusPoints: 5,
      kioskIds: [kioskId],
      startsAt: '2026-01-01T00:00:00+01:00',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.promotion).toMatchObject({
      name: 'Bonus now',
      multiplier: null,
      bonusPoints: 5,
      kioskIds: [kioskId],
      startsAt: '2025-12-31T23:00:00.000Z',
      pointsGiven: 10,
      createdAt: created.body.promotion.createdAt,
    });
    expect(await listPromotions()).toEqual([replaced.body.promotion]);
  });

  test.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ multiplier: null }, 'multiplier or bonusPoints is required'],
    [{ bonusPoints: 5 }, 'bonusPoints must be null'],
    [{ multiplier: 1 }, 'multiplier'],
    [{ multiplier: 10.5 }, 'multiplier'],
    [{ multiplier: 1.25 }, 'multiplier must have at most one decimal'],
    [{ multiplier: null, bonusPoints: 0 }, 'bonusPoints'],
    [{ multiplier: null, bonusPoints: 10_001 }, 'bonusPoints'],
    [{ startsAt: '2026-12-01T00:00:00Z', endsAt: '2026-12-01T00:00:00Z' }, 'endsAt must be after startsAt'],
    [{ startsAt: 'tomorrow' }, 'startsAt'],
    [{ hours: 'weekends please' }, 'hours is not valid'],
    [{ kioskIds: [] }, 'kioskIds'],
    [{ kioskIds: Array.from({ length: 101 }, (_, i) => `k${i}`) }, 'kioskIds'],
    [{ kioskIds: ['a/b'] }, 'kioskIds.0'],
    [{ minItems: 0 }, 'minItems'],
    [{ minItems: 1001 }, 'minItems'],
    [{ budgetPoints: 0 }, 'budgetPoints'],
    [{ budgetPoints: 100_000_001 }, 'budgetPoints'],
    [{ colour: 'red' }, 'colour'],
  ])('%j is 400 naming the field (%s), and nothing is written', async (fields, named) => {
    const answer = await setPromotion({ id: 'p', name: 'P', multiplier: 2, ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid-argument');
    expect(answer.body.error).toContain(named);
    expect((await db().collection('promotions').doc('p').get()).exists).toBe(false);
  });

  test('at most 50 active at once: the 51st is refused 409, a replacement or an inactive one is not', async () => {
    for (let i = 0; i < 50; i++) {
      expect((await setPromotion({ id: `p-${i}`, name: 'Bonus', bonusPoints: 1 })).status).toBe(201);
    }
    const refused = await setPromotion({ id: 'p-50', name: 'Bonus', bonusPoints: 1 });
    expect([refused.status, refused.body.code]).toEqual([409, 'too-many-promotions']);
    expect((await db().collection('promotions').doc('p-50').get()).exists).toBe(false);
    expect((await setPromotion({ id: 'p-0', name: 'Bonus', bonusPoints: 2 })).status).toBe(200);
    expect((await setPromotion({ id: 'p-50', name: 'Bonus', bonusPoints: 1, active: false })).status).toBe(201);
    expect((await setPromotion({ id: 'p-1', name: 'Bonus', bonusPoints: 1, active: false })).status).toBe(200);
    expect((await setPromotion({ id: 'p-50', name: 'Bonus', bonusPoints: 1 })).status).toBe(200);
    expect((await call('GET', '/promotions')).body.promotions).toHaveLength(50);
  }, 120_000);

  test('a window already past is allowed; only admins may', async () => {
    const past = {
      id: 'past',
      name: 'Past',
      multiplier: 2,
      startsAt: '2020-01-01T00:00:00Z',
      endsAt: '2020-01-02T00:00:00Z',
    };
    expect((await setPromotion(past)).status).toBe(201);
    const user = await bearerFor('someone');
    expect((await call('POST', '/admin/promotions', { body: past, headers: user })).status).toBe(403);
    expect((await call('GET', '/admin/promotions', { headers: user })).status).toBe(403);
  });
});

describe('what a deposit earns', () => {
  test('the largest multiplier only, then the bonuses by id: response, document, history and webhook', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'x-double', name: 'Double', multiplier: 2 });
    await setPromotion({ id: 'y-more', name: 'Times 2.3', multiplier: 2.3 });
    await setPromotion({ id: 'b-bonus', name: 'Bonus B', bonusPoints: 7 });
    await setPromotion({ id: 'a-bonus', name: 'Bonus A', bonusPoints: 3 });
    // 11 plastic items: 110 base, × 2.3 adds 143 exactly.
    const answer = await deposit(apiKey, { kioskId, userId, plasticCount: 11, metalCount: 0 });
    expect(answer.status).toBe(200);
    const breakdown = [
      { source: 'base', points: 110 },
      { source: 'promotion', promotionId: 'y-more', name: 'Times 2.3', points: 143 },
      { source: 'promotion', promotionId: 'a-bonus', name: 'Bonus A', points: 3 },
      { source: 'promotion', promotionId: 'b-bonus', name: 'Bonus B', points: 7 },
    ];
    expect(answer.body.transaction).toMatchObject({ pointsEarned: 263, newBalance: 263, capped: false, breakdown });
    const id = answer.body.transaction.id;
    expect((await db().collection('transactions').doc(id).get()).get('breakdown')).toEqual(breakdown);
    const history = await call('GET', `/user/${userId}/history`, { headers: await bearerFor(userId) });
    expect(history.body.entries[0].transaction.breakdown).toEqual(breakdown);
    const events = await webhookEventsCollection().where('subjectId', '==', id).get();
    expect(JSON.parse(events.docs[0].get('body')).data.breakdown).toEqual(breakdown);
    const given = await listPromotions();
    expect(Object.fromEntries(given.map(({ id: promotionId, pointsGiven }) => [promotionId, pointsGiven]))).toEqual({
      'a-bonus': 3,
      'b-bonus': 7,
      'x-double': 0,
      'y-more': 143,
    });
    expect(await auditDifferences()).toEqual([]);
  });

  test("occurredAt decides the window and the hours in the kiosk's time zone: a late upload gets the weekend", async () => {
    const { kioskId, apiKey } = await seedKioskWithKey({ timezone: 'Europe/Berlin' });
    const userId = await seedUser();
    const saturday = lastWeekday(6);
    const wednesday = lastWeekday(3);
    await setPromotion({
      id: 'weekend',
      name: 'Weekend double',
      multiplier: 2,
      hours: 'Sa,Su 00:00-24:00',
      kioskIds: [kioskId, 'another-kiosk'],
      startsAt: new Date(saturday.getTime() - 86_400_000).toISOString(),
      endsAt: new Date(saturday.getTime() + 3_600_000).toISOString(),
    });
    const weekend = await deposit(apiKey, {
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      occurredAt: saturday.toISOString(),
    });
    expect(weekend.body.transaction.pointsEarned).toBe(20);
    // Past endsAt by occurredAt, though the window (by the clock) holds both.
    const late = await deposit(apiKey, {
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      occurredAt: new Date(saturday.getTime() + 3_600_000).toISOString(),
    });
    expect(late.body.transaction.pointsEarned).toBe(10);
    await setPromotion({ id: 'weekend', name: 'Weekend double', multiplier: 2, hours: 'Sa,Su 00:00-24:00' });
    const weekday = await deposit(apiKey, {
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      occurredAt: wednesday.toISOString(),
    });
    expect(weekday.body.transaction.breakdown).toEqual([{ source: 'base', points: 10 }]);
    // Saturday 23:30 UTC is Sunday 00:30 in Berlin: still the weekend there; Sunday 23:30 UTC is Monday there.
    const sundayNight = new Date(saturday.getTime() + 86_400_000 + 11.5 * 3_600_000);
    if (sundayNight.getTime() < Date.now()) {
      const monday = await deposit(apiKey, {
        kioskId,
        userId,
        plasticCount: 1,
        metalCount: 0,
        occurredAt: sundayNight.toISOString(),
      });
      expect(monday.body.transaction.pointsEarned).toBe(10);
    }
  });

  test('kioskIds, minItems and active apply to the next deposit after the change', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    const earned = async (plasticCount: number) =>
      (await deposit(apiKey, { kioskId, userId, plasticCount, metalCount: 0 })).body.transaction.pointsEarned;
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5, kioskIds: ['elsewhere'] });
    expect(await earned(1)).toBe(10);
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5, kioskIds: [kioskId], minItems: 2 });
    expect(await earned(1)).toBe(10);
    expect(await earned(2)).toBe(25);
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5, active: false });
    expect(await earned(2)).toBe(20);
  });

  test('a promotion gives at most what its budget has left, then stops; a raised budget gives again', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'double', name: 'Double', multiplier: 2, budgetPoints: 130 });
    const first = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(first.body.transaction.breakdown[1].points).toBe(100);
    const second = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(second.body.transaction.breakdown).toEqual([
      { source: 'base', points: 100 },
      { source: 'promotion', promotionId: 'double', name: 'Double', points: 30 },
    ]);
    const third = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(third.body.transaction.breakdown).toEqual([{ source: 'base', points: 100 }]);
    expect(await givenBy('double')).toBe(130);
    expect((await call('GET', '/promotions')).body.promotions).toEqual([]);

    await setPromotion({ id: 'double', name: 'Double', multiplier: 2, budgetPoints: 150 });
    const fourth = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(fourth.body.transaction.pointsEarned).toBe(120);
    expect(await givenBy('double')).toBe(150);
    // Lowered below what it gave: it gives nothing more, and pointsGiven stays.
    await setPromotion({ id: 'double', name: 'Double', multiplier: 2, budgetPoints: 10 });
    const fifth = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(fifth.body.transaction.pointsEarned).toBe(100);
    expect(await givenBy('double')).toBe(150);
    expect(await auditDifferences()).toEqual([]);
  });

  test('the daily cap cuts the promotions first, the last applied first, then the base', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await db().collection('config').doc('rewards').set({ dailyPointsCap: 230 });
    await setPromotion({ id: 'double', name: 'Double', multiplier: 2 });
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50 });
    const first = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(first.body.transaction).toMatchObject({
      pointsEarned: 230,
      capped: true,
      breakdown: [
        { source: 'base', points: 100 },
        { source: 'promotion', promotionId: 'double', name: 'Double', points: 100 },
        { source: 'promotion', promotionId: 'bonus', name: 'Bonus', points: 30 },
      ],
    });
    const second = await deposit(apiKey, { kioskId, userId, plasticCount: 10, metalCount: 0 });
    expect(second.body.transaction).toMatchObject({ pointsEarned: 0, capped: true, breakdown: [] });
    expect(await givenBy('bonus')).toBe(30);
    expect(await auditDifferences()).toEqual([]);
  });

  test('a promotion whose shards were broken by hand gives nothing, never refusing the kiosk', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5, budgetPoints: 100 });
    await setPromotion({ id: 'unlimited', name: 'Unlimited', bonusPoints: 2 });
    await db()
      .doc('config/activePromotions')
      .update({ 'promotions.bonus.revision': 'edited-by-hand', 'promotions.unlimited.revision': 'edited-by-hand' });
    const answer = await deposit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect([answer.status, answer.body.transaction?.breakdown]).toEqual([200, [{ source: 'base', points: 10 }]]);
    // Saved again through the API, each gives again.
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5, budgetPoints: 100 });
    await setPromotion({ id: 'unlimited', name: 'Unlimited', bonusPoints: 2 });
    const after = await deposit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(after.body.transaction.pointsEarned).toBe(17);
    expect([await givenBy('bonus'), await givenBy('unlimited')]).toEqual([5, 2]);
    expect(await auditDifferences()).toEqual([]);
  });

  test('a replayed deposit is answered from its record and gives nothing more', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 40, budgetPoints: 100 });
    const body = { kioskId, userId, plasticCount: 1, metalCount: 0 };
    const first = await deposit(apiKey, body, { 'idempotency-key': 'k-1' });
    await setPromotion({ id: 'bonus', name: 'Bonus renamed', bonusPoints: 90, budgetPoints: 100 });
    const again = await deposit(apiKey, body, { 'idempotency-key': 'k-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await givenBy('bonus')).toBe(40);
  });
});

describe('budgets are exact under concurrency', () => {
  test("one user's deposits in one batch take from the budget in turn, in one commit", async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 10, budgetPoints: 25 });
    const transactions = [1, 2, 3].map((i) => ({
      kioskId,
      userId,
      plasticCount: 1,
      metalCount: 0,
      idempotencyKey: `batch-${i}`,
    }));
    itemsSent.set(kioskId, 3);
    const answer = await call('POST', '/kiosk/transactions/batch', {
      body: { transactions },
      headers: { 'x-api-key': apiKey },
    });
    expect(answer.body.results.map(({ transaction }: Body) => (transaction as Body).pointsEarned)).toEqual([
      20, 20, 15,
    ]);
    expect(await givenBy('bonus')).toBe(25);
    expect(await auditDifferences()).toEqual([]);
  });

  test('24 concurrent deposits against a nearly spent budget give exactly the budget', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const users = await Promise.all(Array.from({ length: 24 }, () => seedUser()));
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50, budgetPoints: 1000 });
    // Spend all but 230 of it first: 15 deposits of one user.
    const spender = await seedUser();
    for (let i = 0; i < 15; i++) await deposit(apiKey, { kioskId, userId: spender, plasticCount: 1, metalCount: 0 });
    expect(await givenBy('bonus')).toBe(750);
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50, budgetPoints: 980 });

    const answers = await Promise.all(
      users.map((userId) => deposit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 })),
    );
    expect(answers.map(({ status }) => status)).toEqual(users.map(() => 200));
    const promoted = answers.map(({ body }) => sumOf(body.transaction.breakdown) - 10);
    expect(promoted.reduce((sum, points) => sum + points, 0)).toBe(230);
    expect(promoted.filter((points) => points === 50)).toHaveLength(4);
    expect(promoted.filter((points) => points === 30)).toHaveLength(1);
    expect(await givenBy('bonus')).toBe(980);
    expect(await auditDifferences()).toEqual([]);
  }, 180_000);
});

describe("a change between an award's read and its commit", () => {
  /** One deposit awarded in this process, while `change` gets in just before its first commit. */
  async function awardWhileChanged(change: () => Promise<unknown>) {
    const { kioskId, keyId } = await seedKioskWithKey();
    const userId = await seedUser();
    itemsSent.set(kioskId, 1);
    const fault = injectCommitFaults(db(), writesTo('transactions'), 1, { before: change });
    try {
      const [settled] = await awardTransactions(
        [{ kioskId, userId, plasticCount: 1, metalCount: 0, happenedAt: new Date(), idempotencyKey: 'changed' }],
        { apiKeyId: keyId, oldestAcceptedDay: '2000-01-01' },
      );
      if ('error' in settled) throw settled.error;
      return settled.outcome.result.transaction;
    } finally {
      expect(fault.injected()).toBe(1);
      fault.restore();
    }
  }

  test('an unlimited promotion given a budget: the award counted blind reads again and keeps to the budget', async () => {
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50 });
    const transaction = await awardWhileChanged(() =>
      setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50, budgetPoints: 20 }),
    );
    expect(transaction.breakdown).toEqual([
      { source: 'base', points: 10 },
      { source: 'promotion', promotionId: 'bonus', name: 'Bonus', points: 20 },
    ]);
    expect(await givenBy('bonus')).toBe(20);
    expect(await auditDifferences()).toEqual([]);
  });

  test('a budgeted promotion made unlimited: the award reads again and counts on the new shards', async () => {
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50, budgetPoints: 20 });
    const transaction = await awardWhileChanged(() => setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 50 }));
    expect(transaction.pointsEarned).toBe(60);
    expect(await givenBy('bonus')).toBe(50);
    expect(await auditDifferences()).toEqual([]);
  });
});

describe('the audit', () => {
  test("finds a promotion's pointsGiven that differs from its breakdowns, and a breakdown that differs from its points", async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await setPromotion({ id: 'bonus', name: 'Bonus', bonusPoints: 5 });
    const answer = await deposit(apiKey, { kioskId, userId, plasticCount: 1, metalCount: 0 });
    expect(await auditDifferences()).toEqual([]);
    const shards = await db().collection('promotions/bonus/budgetShards').where('given', '>', 0).get();
    await shards.docs[0].ref.update({ given: 7 });
    const id = answer.body.transaction.id;
    await db()
      .collection('transactions')
      .doc(id)
      .update({ breakdown: [{ source: 'base', points: 10 }] });
    expect(await auditDifferences()).toEqual([
      `transaction ${id}: breakdown sums to 10, pointsEarned is 15`,
      "promotion bonus: pointsGiven 7, the transactions' breakdowns say 0",
    ]);
  });
});

describe('POST /admin/promotions/simulate', () => {
  test("what a deposit would earn, with the user's cap, writing nothing; 404 unknown kiosk or user", async () => {
    const { kioskId } = await seedKioskWithKey();
    const userId = await seedUser();
    await db().collection('config').doc('rewards').set({ dailyPointsCap: 150 });
    await setPromotion({ id: 'double', name: 'Double', multiplier: 2, budgetPoints: 1000 });
    const headers = await adminHeaders();
    const simulate = (body: Body) => call('POST', '/admin/promotions/simulate', { body, headers });
    expect((await simulate({ kioskId, plasticCount: 5, metalCount: 0 })).body).toEqual({
      success: true,
      pointsEarned: 100,
      breakdown: [
        { source: 'base', points: 50 },
        { source: 'promotion', promotionId: 'double', name: 'Double', points: 50 },
      ],
      capped: false,
    });
    await db()
      .collection('users')
      .doc(userId)
      .update({ [`earnedByDay.${new Date().toISOString().slice(0, 10)}`]: 100 });
    expect((await simulate({ kioskId, userId, plasticCount: 5, metalCount: 0 })).body).toMatchObject({
      pointsEarned: 50,
      capped: true,
      breakdown: [{ source: 'base', points: 50 }],
    });
    expect(await givenBy('double')).toBe(0);
    expect((await db().collection('transactions').get()).size).toBe(0);
    const unknownKiosk = await simulate({ kioskId: 'nowhere', plasticCount: 1, metalCount: 0 });
    expect([unknownKiosk.status, unknownKiosk.body.code]).toEqual([404, 'not-found']);
    const unknownUser = await simulate({ kioskId, userId: 'nobody', plasticCount: 1, metalCount: 0 });
    expect([unknownUser.status, unknownUser.body.code]).toEqual([404, 'not-found']);
    expect((await simulate({ kioskId, plasticCount: -1, metalCount: 0 })).body.error).toContain('plasticCount');
    // Ids Firestore cannot store, and an instant Date cannot hold, are 400 naming the field (they were 500).
    const refused = async (body: Body) => {
      const res = await simulate(body);
      return [res.status, res.body.error.split(' ')[0]];
    };
    expect(await refused({ kioskId, userId: '__x__', plasticCount: 1, metalCount: 0 })).toEqual([400, 'userId']);
    expect(await refused({ kioskId: '__k__', plasticCount: 1, metalCount: 0 })).toEqual([400, 'kioskId']);
    const leapSecond = '2016-12-31T23:59:60Z';
    expect(await refused({ kioskId, plasticCount: 1, metalCount: 0, occurredAt: leapSecond })).toEqual([
      400,
      'occurredAt',
    ]);
  });
});

describe('GET /promotions', () => {
  test('active, not ended, budget not spent; soonest ending first; by kiosk; no budget figures', async () => {
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await setPromotion({ id: 'open', name: 'Open', bonusPoints: 1 });
    await setPromotion({ id: 'later', name: 'Later', bonusPoints: 1, endsAt: later, kioskIds: ['k1'] });
    await setPromotion({
      id: 'soon',
      name: 'Soon',
      bonusPoints: 1,
      endsAt: soon,
      startsAt: soon.replace(/^\d{4}/, '2020'),
    });
    await setPromotion({
      id: 'future',
      name: 'Future',
      multiplier: 1.5,
      startsAt: soon,
      endsAt: later,
      kioskIds: ['k2'],
    });
    await setPromotion({ id: 'ended', name: 'Ended', bonusPoints: 1, endsAt: '2020-01-01T00:00:00Z' });
    await setPromotion({ id: 'off', name: 'Off', bonusPoints: 1, active: false });
    const all = await call('GET', '/promotions');
    expect(all.status).toBe(200);
    expect(all.body.promotions.map(({ id }: Body) => id)).toEqual(['soon', 'future', 'later', 'open']);
    expect(all.body.promotions[2]).toEqual({
      id: 'later',
      name: 'Later',
      multiplier: null,
      bonusPoints: 1,
      minItems: null,
      startsAt: null,
      endsAt: later,
      hours: null,
      kioskIds: ['k1'],
    });
    const atK1 = await call('GET', '/promotions?kioskId=k1');
    expect(atK1.body.promotions.map(({ id }: Body) => id)).toEqual(['soon', 'later', 'open']);
    expect((await call('GET', `/promotions?kioskId=${uniqueId('a/b')}`)).status).toBe(400);
  });
});

describe('the CLI: promotions:set, promotions:list, promotions:simulate', () => {
  test('sets a promotion as the API does, lists it with what it gave, simulates a deposit', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const set = JSON.parse(
      await admin(
        'promotions:set',
        '--id',
        'weekend-double',
        '--name',
        'Double points this weekend',
        '--multiplier',
        '2',
        '--kiosks',
        `${kioskId},berlin-zoo`,
        '--budget-points',
        '500',
      ),
    );
    expect(set).toMatchObject({
      id: 'weekend-double',
      multiplier: 2,
      kioskIds: [kioskId, 'berlin-zoo'],
      pointsGiven: 0,
    });
    const userId = await seedUser();
    await deposit(apiKey, { kioskId, userId, plasticCount: 3, metalCount: 0 });
    const listed = JSON.parse(await admin('promotions:list', '--json'));
    expect(listed).toEqual([expect.objectContaining({ id: 'weekend-double', budgetPoints: 500, pointsGiven: 30 })]);
    expect(await admin('promotions:list')).toMatch(/weekend-double .*x2 .*30\/500/);
    const simulated = JSON.parse(
      await admin('promotions:simulate', '--kiosk', kioskId, '--plastic', '1', '--metal', '1'),
    );
    expect(simulated).toEqual({
      pointsEarned: 60,
      capped: false,
      breakdown: [
        { source: 'base', points: 30 },
        { source: 'promotion', promotionId: 'weekend-double', name: 'Double points this weekend', points: 30 },
      ],
    });
    const refused = await cli('promotions:set', '--id', 'p', '--name', 'P', '--multiplier', '2', '--bonus-points', '5');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('bonusPoints must be null');
  });
});
