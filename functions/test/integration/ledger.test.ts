import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { upsertReward } from '../../src/data/rewards';
import { monthOf } from '../../src/domain/pointsExpiry';
import { adjustBalance } from '../../src/services/adjustBalance';
import { auditBooks } from '../../src/services/audit';
import { openBalance } from '../../src/services/ledgerBooks';
import { cancelRedemption, redeemReward } from '../../src/services/redemptions';
import { admin, cli } from './cli-runner';
import { db, resetEmulators, waitForEffects } from './helpers';
import { bearerFor, call } from './requests';
import { seedKioskWithKey, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const deposit = (apiKey: string, kioskId: string, userId: string, plasticCount: number, key?: string) =>
  call('POST', '/kiosk/transaction', {
    body: { kioskId, userId, plasticCount, metalCount: 0 },
    headers: { 'x-api-key': apiKey, ...(key && { 'idempotency-key': key }) },
  });
const history = async (userId: string, query = '') =>
  call('GET', `/user/${userId}/history${query}`, { headers: await bearerFor(userId) });

describe('the ledger', () => {
  test('every transaction has exactly one earn entry, in the commit that credits the user', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    const first = await deposit(apiKey, kioskId, userId, 3, 'r-1');
    await deposit(apiKey, kioskId, userId, 3, 'r-1');
    await deposit(apiKey, kioskId, userId, 2);
    const entries = await db().collection('ledger').where('userId', '==', userId).get();
    expect(entries.size).toBe(2);
    const earned = entries.docs.find((doc) => doc.id === first.body.transaction.id)!.data();
    expect(earned).toMatchObject({
      userId,
      kind: 'earn',
      points: 30,
      balanceAfter: 30,
      transaction: { id: first.body.transaction.id, kioskId, plasticCount: 3, metalCount: 0 },
    });
    expect(earned.transaction.occurredAt.toDate().toISOString()).toBe(first.body.transaction.occurredAt);
  });
});

describe('GET /user/{id}/history', () => {
  test('newest first, paged; paging while entries are added never skips or repeats one', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    for (let i = 1; i <= 7; i++) await deposit(apiKey, kioskId, userId, i);
    const first = await history(userId, '?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.entries.map((e: { points: number }) => e.points)).toEqual([70, 60, 50]);
    expect(first.body.entries[0]).toMatchObject({ kind: 'earn', balanceAfter: 280, transaction: { kioskId } });

    const seen = [...first.body.entries];
    let cursor = first.body.nextCursor;
    let added = 0;
    while (cursor) {
      await deposit(apiKey, kioskId, userId, 1); // newer than the first page: never on a later one
      added++;
      const page = await history(userId, `?limit=3&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.entries);
      cursor = page.body.nextCursor;
    }
    expect(seen.map((e) => e.points)).toEqual([70, 60, 50, 40, 30, 20, 10]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(7);
    const fresh = await history(userId, '?limit=100');
    expect(added).toBe(2);
    expect(fresh.body.entries).toHaveLength(7 + added);
    expect(fresh.body.nextCursor).toBeNull();
  });

  test.each([
    ['?limit=0', 'limit must be an integer from 1 to 100'],
    ['?limit=101', 'limit must be an integer from 1 to 100'],
    ['?limit=2.5', 'limit must be an integer from 1 to 100'],
    ['?cursor=not-a-cursor', 'cursor is not one this endpoint gave out'],
    [`?cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'cursor is not one this endpoint gave out'],
    ['?page=2', 'Unknown query parameter page'],
  ])('%s: 400 naming the parameter', async (query, message) => {
    const userId = await seedUser();
    const res = await history(userId, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
  });

  test("another user's history: 403; an admin may read it", async () => {
    const userId = await seedUser();
    const other = await call('GET', `/user/${userId}/history`, { headers: await bearerFor('someone-else') });
    expect(other.status).toBe(403);
    const byAdmin = await call('GET', `/user/${userId}/history`, {
      headers: await bearerFor('an-admin', { admin: true }),
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({ success: true, entries: [], nextCursor: null });
  });
});

describe('audit and ledger:backfill', () => {
  test('balances from before the ledger are opened once; the audit then holds, and finds drift', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const saver = await seedUser({ currentPoints: 500, totalPoints: 500 });
    const spender = await seedUser({ currentPoints: 200, totalPoints: 900 });
    const before = await cli('audit');
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`user ${saver}: currentPoints 500, the ledger says 0`);

    // Other profiles may exist (signed-in test accounts of earlier tests, provisioned late), all without points.
    expect(await admin('ledger:backfill')).toMatch(/^ledger:backfill: 2 of \d+ users given opening entries\n$/);
    expect(await admin('ledger:backfill')).toMatch(/^ledger:backfill: 0 of \d+ users given opening entries\n$/);
    const spent = (await db().collection('ledger').doc(`opening-spent-${spender}`).get()).data();
    expect(spent).toMatchObject({ kind: 'redeem', points: -700, balanceAfter: 200 });

    const res = await deposit(apiKey, kioskId, saver, 2);
    await waitForEffects(res.body.transaction.id);
    expect(await admin('audit')).toMatch(/^audit: OK \(\d+ users, 1 kiosks, 4 entries, 1 transactions\)\n$/);

    await db().collection('users').doc(saver).update({ currentPoints: 999 });
    const drift = await cli('audit');
    expect(drift.code).toBe(1);
    // A balance edited by hand disagrees with the ledger and with the points model of expiry (§14).
    expect(drift.stdout).toBe(
      `user ${saver}: currentPoints 999, the ledger says 520\n` +
        `user ${saver}: pointsByMonth sums to 520, currentPoints is 999\n`,
    );
    expect(drift.stderr).toMatch(/audit: DRIFT \(2 differences; \d+ users, 1 kiosks, 4 entries, 1 transactions\)/);
  });

  test('an award landing between the read of the users and the read of their ledger is no drift', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await waitForEffects((await deposit(apiKey, kioskId, userId, 2)).body.transaction.id);
    const interleaved: string[] = [];
    // After the audit read the page of users, before it reads the ledger: the award lands in between.
    const report = await auditBooks({
      onPage: async (collectionId) => {
        if (collectionId !== 'users' || interleaved.length > 0) return;
        const award = await deposit(apiKey, kioskId, userId, 3);
        interleaved.push(award.body.transaction.id);
        await waitForEffects(award.body.transaction.id);
      },
    });
    expect(interleaved).toHaveLength(1);
    expect(report).toMatchObject({ kiosks: 1, entries: 2, transactions: 2, differences: [] });
  });

  test('the demo seed passes the audit', async () => {
    await admin('seed');
    expect(await admin('audit')).toMatch(/^audit: OK \(\d+ users, 4 kiosks, \d+ entries, 0 transactions\)\n$/);
  });
});

/**
 * Books made wrong by hand, each in one way, with the user's balances (and points model)
 * moved to agree with the entries: only a check of the sources can find them.
 */
describe('the audit proves the books from their sources (contract Part four)', () => {
  /** A user with 500 points, opened in the ledger. */
  async function openedUser(): Promise<string> {
    const userId = await seedUser({ currentPoints: 500, totalPoints: 500 });
    await openBalance(userId, 'test');
    return userId;
  }
  /** Moves the user's balances (and this month's points) as an entry of `current` points (`earned`: of earn or adjust) would. */
  const moveBalances = (userId: string, current: number, earned: boolean) =>
    db()
      .doc(`users/${userId}`)
      .update({
        currentPoints: FieldValue.increment(current),
        totalPoints: FieldValue.increment(earned ? current : 0),
        [`pointsByMonth.${monthOf(new Date())}`]: FieldValue.increment(current),
      });
  const addEntry = (id: string, entry: Record<string, unknown>) =>
    db()
      .doc(`ledger/${id}`)
      .set({ balanceAfter: 0, createdAt: Timestamp.now(), ...entry });
  const differences = async () => (await auditBooks()).differences;

  test('an earn entry that names no transaction of the user', async () => {
    const userId = await openedUser();
    const transaction = { id: 'no-such-tx', kioskId: 'k', plasticCount: 4, metalCount: 0, occurredAt: Timestamp.now() };
    await addEntry('stray-earn', { userId, kind: 'earn', points: 40, transaction });
    await moveBalances(userId, 40, true);
    expect(await differences()).toEqual([
      `earn entry stray-earn of user ${userId} names transaction no-such-tx, which is no transaction of theirs`,
    ]);
  });

  test('a transaction without its earn entry, with two, and with one that is not its pointsEarned', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await openedUser();
    const award = async (plasticCount: number) =>
      (await deposit(apiKey, kioskId, userId, plasticCount)).body.transaction.id as string;
    const [lost, changed, doubled] = [await award(2), await award(3), await award(1)];
    await Promise.all([lost, changed, doubled].map((id) => waitForEffects(id)));
    await db().doc(`ledger/${lost}`).delete();
    await moveBalances(userId, -20, true);
    await db().doc(`ledger/${changed}`).update({ points: 35 });
    await moveBalances(userId, 5, true);
    const twin = (await db().doc(`ledger/${doubled}`).get()).data()!;
    // '~' sorts after every generated id: the twin is listed second.
    await db().doc('ledger/~twin-earn').set(twin);
    await moveBalances(userId, 10, true);
    expect((await differences()).sort()).toEqual(
      [
        `transaction ${lost} of user ${userId}: 0 earn entries, not 1`,
        `transaction ${changed} of user ${userId}: pointsEarned 30, its earn entry ${changed} says 35`,
        `transaction ${doubled} of user ${userId}: 2 earn entries, not 1 (${doubled}, ~twin-earn)`,
      ].sort(),
    );
  });

  test('a redemption without its redeem entry or with another amount, a refund of one not cancelled or missing', async () => {
    const userId = await openedUser();
    await upsertReward({ id: 'tree', name: 'A tree', cost: 100, kind: 'donation', stock: null });
    const redeem = async () => (await redeemReward(userId, 'tree', uniqueId('key'))).redemption.id;
    const [unspent, cheaper, refunded, cancelled] = [await redeem(), await redeem(), await redeem(), await redeem()];
    await cancelRedemption(cancelled, 'changed their mind', 'test');
    await db().doc(`ledger/redeem-${unspent}`).delete();
    await moveBalances(userId, 100, false);
    await db().doc(`ledger/redeem-${cheaper}`).update({ points: -90 });
    await moveBalances(userId, 10, false);
    const named = { id: refunded, rewardId: 'tree', rewardName: 'A tree' };
    await addEntry('stray-refund', { userId, kind: 'refund', points: 100, redemption: named });
    await moveBalances(userId, 100, false);
    await db().doc(`ledger/refund-${cancelled}`).delete();
    await moveBalances(userId, -100, false);
    const unknown = { id: 'no-such-redemption', rewardId: 'tree', rewardName: 'A tree' };
    await addEntry('stray-redeem', { userId, kind: 'redeem', points: -100, redemption: unknown });
    await moveBalances(userId, -100, false);
    expect((await differences()).sort()).toEqual(
      [
        `redemption ${unspent} of user ${userId} (issued): 0 redeem entries, not 1`,
        `redemption ${cheaper} of user ${userId}: its redeem entry redeem-${cheaper} is -90 points, not -100`,
        `redemption ${refunded} of user ${userId} (issued): 1 refund entries, not 0 (stray-refund)`,
        `redemption ${cancelled} of user ${userId} (cancelled): 0 refund entries, not 1`,
        `redeem entry stray-redeem of user ${userId} names redemption no-such-redemption, which is no redemption of theirs`,
      ].sort(),
    );
  });

  test('two expire entries of one user and date', async () => {
    const userId = await openedUser();
    await addEntry(`expire-${userId}-2027-01-01`, { userId, kind: 'expire', points: -10 });
    await addEntry('stray-expire', {
      userId,
      kind: 'expire',
      points: -10,
      createdAt: Timestamp.fromDate(new Date('2027-01-01T12:00:00Z')),
    });
    await moveBalances(userId, -20, false);
    expect(await differences()).toEqual([
      `user ${userId}: 2 expire entries of 2027-01-01 (expire-${userId}-2027-01-01, stray-expire)`,
    ]);
  });

  test('a forfeit entry on a profile that is not erased', async () => {
    const userId = await openedUser();
    await addEntry(`forfeit-${userId}`, { userId, kind: 'forfeit', points: -500 });
    await moveBalances(userId, -500, false);
    await db().doc(`users/${userId}`).update({ pointsOldestMonth: null });
    expect(await differences()).toEqual([
      `forfeit entry forfeit-${userId} of user ${userId}, whose profile is not erased`,
    ]);
  });

  test('a drift that a write during the audit would hide is found on a read at one time', async () => {
    const userId = await openedUser();
    // 40 points more than the ledger says, model included.
    await moveBalances(userId, 40, true);
    let adjusted = false;
    // After the audit read the user, before it reads their entries: an adjustment of 40 lands in between, so the
    // stored figures as read (540) equal the entries as read (500 + 40).
    const report = await auditBooks({
      onPage: async (collectionId) => {
        if (collectionId !== 'users' || adjusted) return;
        adjusted = true;
        await adjustBalance(userId, { points: 40, reason: 'goodwill', by: 'test' });
      },
    });
    expect(adjusted).toBe(true);
    expect(report.differences).toEqual([
      `user ${userId}: currentPoints 580, the ledger says 540`,
      `user ${userId}: totalPoints 580, the ledger says 540`,
    ]);
  });
});
