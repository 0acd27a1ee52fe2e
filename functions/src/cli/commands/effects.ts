/** effects:sweep: completes the effects (counters, notifications, pushes) that no trigger finished. */
import { DEFAULT_MIN_AGE_MS } from '../../services/pendingEffects';
import { runEffectsSweep } from '../../triggers/effectsSweep';
import { printJson, type Command } from '../command';
import { UsageError } from '../errors';

const effectsSweep: Command = {
  name: 'effects:sweep',
  description:
    'Runs the effects sweep once, as the scheduled function does every 5 minutes (npm start runs it on a timer: ' +
    'the emulator runs no schedules): completes, exactly once, the kiosk counters, notifications and pushes of ' +
    'transactions, redemptions, alerts and expiry reminders whose trigger (or run) never finished them, and the ' +
    'webhook deliveries of events whose fan-out never ran; finishes erasures (their notifications deleted again, ' +
    'in case a trigger that read the user before the erasure wrote one). Like the scheduled run, it stops when ' +
    'its time budget is spent and continues where the last run stopped (unfinished: true: run it again). Prints ' +
    'what it found and completed as JSON.',
  flags: {
    'min-age': {
      value: 'SECONDS',
      description: `only what was recorded at least this long ago (default ${DEFAULT_MIN_AGE_MS / 1000}, as scheduled)`,
    },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const minAge = flags.get('min-age');
    const seconds = minAge === undefined ? DEFAULT_MIN_AGE_MS / 1000 : Number(minAge);
    if (!Number.isSafeInteger(seconds) || seconds < 0)
      throw new UsageError('--min-age must be a whole number of seconds');
    await printJson(await runEffectsSweep({ minAgeMs: seconds * 1000 }));
  },
};

export const effectsCommands: readonly Command[] = [effectsSweep];
