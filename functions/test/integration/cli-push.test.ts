/**
 * The CLI's pushes go where the service's go (contract, Part four): against the
 * emulators to pushOutbox, as the functions' own, without PUSH_TRANSPORT set.
 */
import { addDays, expiryDay, monthOf } from '../../src/domain/pointsExpiry';
import { runCli } from './cli-runner';
import { PROJECT_ID, db, resetEmulators } from './helpers';
import { seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

test('expiry:run against the emulators writes its reminder push to pushOutbox', async () => {
  await db().doc('config/rewards').set({ pointsExpireAfterMonths: 1 });
  const month = monthOf(new Date());
  const token = `phone-${uniqueId('expiring')}`;
  // Its 40 points count as added this month (data/users.ts newProfile).
  const userId = await seedUser({ pushToken: token, currentPoints: 40, totalPoints: 40 });
  // The test process sets PUSH_TRANSPORT for the handlers it runs itself (setup-env.ts); an operator's shell does not.
  const env = { ...process.env };
  delete env.PUSH_TRANSPORT;
  const remindOn = addDays(expiryDay(month, 1), -30);
  const run = await runCli(['--project', PROJECT_ID, '--emulator', 'expiry:run', '--as-of', remindOn], env);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ reminded: 1 });
  const reminder = await db()
    .doc(`expiryReminders/${userId}_${expiryDay(month, 1)}`)
    .get();
  expect(reminder.get('effects.push.status')).toBe('sent');
  expect((await db().collection('pushOutbox').where('message.token', '==', token).get()).size).toBe(1);
});
