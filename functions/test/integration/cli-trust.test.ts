import { admin, cli } from './cli-runner';
import { resetEmulators } from './helpers';
import { call } from './requests';
import { seedKioskWithKey, seedUser } from './seeds';

beforeEach(resetEmulators);

test('risk:set applies to the next deposit; user:suspend holds it; holds:list and holds:release review it', async () => {
  expect(JSON.parse(await admin('risk:show'))).toEqual({
    kioskItemsPerMinute: null,
    userItemsPerDay: null,
    travelKmh: null,
  });
  const limits = JSON.parse(await admin('risk:set', '--user-items-per-day', '5', '--travel-kmh', '250'));
  expect(limits).toEqual({ kioskItemsPerMinute: null, userItemsPerDay: 5, travelKmh: 250 });
  const bad = await cli('risk:set', '--travel-kmh', 'fast');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--travel-kmh must be a whole number from 1 to 1000000, or off');

  const { kioskId, apiKey } = await seedKioskWithKey();
  const userId = await seedUser();
  const deposit = (plasticCount: number) =>
    call('POST', '/kiosk/transaction', {
      body: { kioskId, userId, plasticCount, metalCount: 0 },
      headers: { 'x-api-key': apiKey },
    });
  const over = await deposit(6);
  expect(over.body.transaction).toMatchObject({ status: 'held', holdReasons: ['user-daily-items'] });
  expect(JSON.parse(await admin('risk:set', '--user-items-per-day', 'off')).userItemsPerDay).toBeNull();

  expect(JSON.parse(await admin('user:suspend', '--user', userId, '--reason', 'checking'))).toMatchObject({
    suspended: true,
    heldPoints: 60,
  });
  const suspended = await deposit(1);
  expect(suspended.body.transaction).toMatchObject({ status: 'held', holdReasons: ['user-suspended'] });
  expect(JSON.parse(await admin('user:unsuspend', '--user', userId)).suspended).toBe(false);

  const listed = JSON.parse(await admin('holds:list', '--json'));
  expect(listed.map((hold: { transactionId: string }) => hold.transactionId)).toEqual([
    suspended.body.transaction.id,
    over.body.transaction.id,
  ]);
  const released = JSON.parse(
    await admin('holds:release', '--transaction', over.body.transaction.id, '--reason', 'a café'),
  );
  expect(released).toMatchObject({
    newBalance: 60,
    hold: { resolution: 'released', by: expect.stringMatching(/^cli:/) },
  });
  const rejected = JSON.parse(
    await admin('holds:reject', '--transaction', suspended.body.transaction.id, '--reason', 'no'),
  );
  expect(rejected.hold.resolution).toBe('rejected');
  const again = await cli('holds:reject', '--transaction', suspended.body.transaction.id, '--reason', 'no');
  expect(again.code).toBe(1);
  expect(JSON.parse(await admin('holds:list', '--json'))).toEqual([]);
});
