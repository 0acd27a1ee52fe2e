import { userInfo } from 'node:os';
import { admin, cli } from './cli-runner';
import { db, resetEmulators } from './helpers';
import { adminHeaders, call } from './requests';
import { seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

describe('adjust', () => {
  test('changes both balances as the API does, records the operator, applies a key once', async () => {
    const userId = await seedUser();
    const first = JSON.parse(await admin('adjust', '--user', userId, '--points', '1500', '--reason', 'Import'));
    expect(first).toEqual({
      adjustment: { id: expect.any(String), points: 1500, reason: 'Import', balanceAfter: 1500 },
      user: expect.objectContaining({ id: userId, currentPoints: 1500, totalPoints: 1500, rank: 'Silver' }),
    });
    const entry = (await db().collection('ledger').doc(first.adjustment.id).get()).data();
    expect(entry).toMatchObject({
      userId,
      kind: 'adjust',
      points: 1500,
      reason: 'Import',
      by: `cli:${userInfo().username}`,
    });

    const args = ['adjust', '--user', userId, '--points=-600', '--reason', 'Counted twice', '--key', 'ticket-7'];
    const taken = await cli(...args);
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.stdout).user).toMatchObject({ currentPoints: 900, totalPoints: 900, rank: 'Bronze' });
    const again = await cli(...args);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(taken.stdout);
    expect(again.stderr).toContain('nothing was applied now');
    // The API sees the CLI's key: the same key for the same user.
    const viaApi = await call('POST', `/admin/users/${userId}/adjustments`, {
      body: { points: -600, reason: 'Counted twice' },
      headers: { ...(await adminHeaders()), 'idempotency-key': 'ticket-7' },
    });
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.adjustment).toEqual(JSON.parse(taken.stdout).adjustment);

    const reused = await cli('adjust', '--user', userId, '--points', '-1', '--reason', 'Other', '--key', 'ticket-7');
    expect(reused).toMatchObject({ code: 1, stdout: '' });
    expect(reused.stderr).toContain('already used with a different request body');
  });

  test.each([
    [['--points', '0', '--reason', 'r'], 'points must not be 0'],
    [['--points', '100001', '--reason', 'r'], 'points must be <= 100000'],
    [['--points', '1.5', '--reason', 'r'], 'points must be integer'],
    [['--points', 'ten', '--reason', 'r'], 'points must be integer'],
    [['--points', '5', '--reason', ''], 'reason must NOT have fewer than 1 characters'],
    [['--points', '-5', '--reason', 'more than there is'], 'below 0'],
  ])('%j: refused with the API message, exit 1, nothing written', async (flags, message) => {
    const userId = await seedUser();
    const run = await cli('adjust', '--user', userId, ...flags);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain(message);
    expect((await db().collection('ledger').where('userId', '==', userId).get()).size).toBe(0);
  });

  test('an unknown user: exit 1 naming it; a missing flag: exit 2', async () => {
    const unknown = await cli('adjust', '--user', 'nobody', '--points', '5', '--reason', 'r');
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.stderr).toContain('User nobody not found');
    const missing = await cli('adjust', '--user', 'nobody', '--points', '5');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--reason is required');
  });
});

describe('history', () => {
  test("prints the user's ledger newest first across pages, deposits and adjustments; --limit, --json", async () => {
    const { kioskId, apiKey } = await seedKioskWithKey();
    const userId = await seedUser();
    await admin('adjust', '--user', userId, '--points', '5', '--reason', 'Welcome');
    for (let i = 1; i <= 3; i++) {
      const res = await call('POST', '/kiosk/transaction', {
        body: { kioskId, userId, plasticCount: i, metalCount: 0 },
        headers: { 'x-api-key': apiKey },
      });
      expect(res.status).toBe(200);
    }
    await admin('adjust', '--user', userId, '--points', '-15', '--reason', 'Returned bottles');

    const table = (await admin('history', '--user', userId)).trimEnd().split('\n');
    expect(table[0]).toMatch(/^WHEN\s+KIND\s+POINTS\s+BALANCE\s+FROM\s+ENTRY$/);
    expect(table.slice(1).map((line) => line.split(/\s{2,}/).slice(1, 5))).toEqual([
      ['adjust', '-15', '50', 'Returned bottles'],
      ['earn', '30', '65', `kiosk ${kioskId}: 3 plastic, 0 metal`],
      ['earn', '20', '35', `kiosk ${kioskId}: 2 plastic, 0 metal`],
      ['earn', '10', '15', `kiosk ${kioskId}: 1 plastic, 0 metal`],
      ['adjust', '5', '5', 'Welcome'],
    ]);

    const newest = await cli('history', '--user', userId, '--limit', '2', '--json');
    expect(newest.code).toBe(0);
    const entries = JSON.parse(newest.stdout);
    expect(entries.map((e: { points: number }) => e.points)).toEqual([-15, 30]);
    const api = await call('GET', `/user/${userId}/history?limit=2`, { headers: await adminHeaders() });
    expect(entries).toEqual(api.body.entries);
    expect(newest.stderr).toContain('The newest 2; more with a larger --limit.');
  });

  test('a user without entries says so; an unknown user exits 1; a bad --limit exits 2', async () => {
    const userId = await seedUser();
    const empty = await cli('history', '--user', userId);
    expect(empty).toMatchObject({ code: 0 });
    expect(empty.stderr).toContain(`User ${userId} has no ledger entries.`);
    expect((await cli('history', '--user', 'nobody')).stderr).toContain('User nobody not found');
    for (const limit of ['0', '-1', 'x', '1.5']) {
      const bad = await cli('history', '--user', userId, '--limit', limit);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--limit must be a positive integer');
    }
  });
});
