import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ID, db, resetEmulators } from './helpers';

const cli = join(__dirname, '..', '..', 'lib', 'cli', 'admin.js');

/** The operator CLI as built by `npm test`, against this suite's project on the emulators. */
const admin = (...args: string[]) =>
  promisify(execFile)(process.execPath, [cli, '--project', PROJECT_ID, '--emulator', ...args], { env: process.env });

beforeEach(resetEmulators);

describe('rewards:set', () => {
  test('keeps every value it was not given', async () => {
    await db().doc('config/rewards').set({
      pointsPerPlastic: 12,
      pointsPerMetal: 25,
      dailyPointsCap: 1234,
      ranks: [
        { name: 'Seed', minTotalPoints: 0 },
        { name: 'Tree', minTotalPoints: 500 },
      ],
    });

    await admin('rewards:set', '--plastic', '15');

    expect((await db().doc('config/rewards').get()).data()).toMatchObject({
      pointsPerPlastic: 15,
      pointsPerMetal: 25,
      dailyPointsCap: 1234,
      ranks: [
        { name: 'Seed', minTotalPoints: 0 },
        { name: 'Tree', minTotalPoints: 500 },
      ],
    });
  });

  test('sets the daily cap', async () => {
    await admin('rewards:set', '--daily-cap', '800');
    expect((await db().doc('config/rewards').get()).get('dailyPointsCap')).toBe(800);
  });
});
