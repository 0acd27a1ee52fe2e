/** expiry:run: the daily expiry run, for today or another UTC day. */
import { pushTransport } from '../../adapters/push';
import { parseDay } from '../../domain/pointsExpiry';
import { utcDay } from '../../domain/rewards';
import { runExpiry } from '../../services/pointsExpiry';
import { note, printJson, type Command } from '../command';
import { UsageError } from '../errors';

const expiryRun: Command = {
  name: 'expiry:run',
  description:
    'Runs the daily expiry run once, as the scheduled function does (npm start runs it on a timer: the emulator ' +
    'runs no schedules), for the UTC day given or today: one expire entry per user with points past their date, ' +
    'and the reminder of points expiring within 30 days, each once however often it runs. Nothing when ' +
    'pointsExpireAfterMonths is null (rewards:set --expire-after-months). Prints what it did as JSON.',
  example: 'npm run admin -- expiry:run --as-of 2027-01-01',
  flags: {
    'as-of': { value: 'YYYY-MM-DD', description: 'the UTC day to run for (default: today)' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const asOf = flags.get('as-of');
    if (asOf !== undefined && !parseDay(asOf)) throw new UsageError('--as-of must be a day, YYYY-MM-DD');
    const outcome = await runExpiry(asOf ?? utcDay(new Date()), pushTransport());
    if (outcome.pointsExpireAfterMonths === null) await note('pointsExpireAfterMonths is null: points never expire.');
    await printJson(outcome);
  },
};

export const expiryCommands: readonly Command[] = [expiryRun];
