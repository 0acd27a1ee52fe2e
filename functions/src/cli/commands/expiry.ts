/** expiry:run: the daily expiry run, for today or another UTC day. */
import { pushTransport } from '../../adapters/push';
import { parseDay } from '../../domain/pointsExpiry';
import { utcDay } from '../../domain/rewards';
import { runExpiry } from '../../services/pointsExpiry';
import { note, printJson, type Command } from '../command';
import { CliError, UsageError } from '../errors';

const expiryRun: Command = {
  name: 'expiry:run',
  description:
    'Runs the daily expiry run once, as the scheduled function does (npm start runs it on a timer: the emulator ' +
    'runs no schedules), for the UTC day given or today: one expire entry per user with points past their date, ' +
    'and the reminder of points expiring within 30 days, each once however often it runs. Nothing when ' +
    'pointsExpireAfterMonths is null (rewards:set --expire-after-months). Prints what it did as JSON. ' +
    'Against a real project a day after today (UTC) is refused unless --force is given: it would write off ' +
    'points still valid, with no undo; against the emulators any day runs.',
  example: 'npm run admin -- expiry:run --as-of 2027-01-01',
  flags: {
    'as-of': { value: 'YYYY-MM-DD', description: 'the UTC day to run for (default: today)' },
    force: { description: 'run for a day after today against a real project (expires points still valid now)' },
  },
  uses: { firestore: true },
  run: async (flags, target) => {
    const asOf = flags.get('as-of');
    if (asOf !== undefined && !parseDay(asOf)) throw new UsageError('--as-of must be a day, YYYY-MM-DD');
    const today = utcDay(new Date());
    // Checked before anything is read or written: a mistyped year would expire real points, with no undo.
    if (asOf !== undefined && asOf > today && !target.emulator && !flags.has('force')) {
      throw new CliError(
        `refused: --as-of ${asOf} is after today (${today}, UTC): against ${target.projectId} that expires points still ` +
          'valid, with no undo; add --force if that is what you mean',
      );
    }
    const outcome = await runExpiry(asOf ?? today, pushTransport());
    if (outcome.pointsExpireAfterMonths === null) await note('pointsExpireAfterMonths is null: points never expire.');
    await printJson(outcome);
  },
};

export const expiryCommands: readonly Command[] = [expiryRun];
