/** risk:set, risk:show, holds:*, user:suspend, user:unsuspend: trust (contract §17), through the API's modules. */
import { holdsPage } from '../../data/holds';
import { loadRiskConfig, saveRiskConfig } from '../../data/riskConfig';
import { parseLimitArgument, type RiskLimit } from '../../domain/risk';
import { validateBody } from '../../http/validation';
import type { HoldDecisionBody, HoldView } from '../../model/trustViews';
import type { HoldResolution } from '../../model/trustVocabulary';
import { decideHold } from '../../services/holds';
import { setSuspension } from '../../services/suspension';
import { printJson, printListing, type Command } from '../command';
import { UsageError } from '../errors';
import { cliActor } from './points';

const LIMIT_FLAGS: Readonly<Record<string, { limit: RiskLimit; description: string }>> = {
  'kiosk-items-per-minute': {
    limit: 'kioskItemsPerMinute',
    description: "a kiosk's items in 10 minutes above 10 × N hold the points (suggested: 40)",
  },
  'user-items-per-day': {
    limit: 'userItemsPerDay',
    description: "a user's items on one UTC day above N hold the points (suggested: 1000)",
  },
  'travel-kmh': {
    limit: 'travelKmh',
    description: "faster than N km/h between a user's deposits at two kiosks holds the points (suggested: 250)",
  },
};

const riskSet: Command = {
  name: 'risk:set',
  description:
    'Sets the limits past which a deposit is recorded with its points held for review (config/risk); `off` ' +
    'turns one off, omitted ones stay as they are. Applies to every deposit accepted after the command returns. ' +
    'Prints the limits now as JSON.',
  example: 'npm run admin -- risk:set --kiosk-items-per-minute 40 --user-items-per-day 1000 --travel-kmh 250',
  flags: Object.fromEntries(
    Object.entries(LIMIT_FLAGS).map(([flag, { description }]) => [flag, { value: 'N|off', description }]),
  ),
  anyOf: Object.keys(LIMIT_FLAGS),
  uses: { firestore: true },
  run: async (flags) => {
    const changes: Partial<Record<RiskLimit, number | null>> = {};
    for (const [flag, { limit }] of Object.entries(LIMIT_FLAGS)) {
      const text = flags.get(flag);
      if (text === undefined) continue;
      const value = parseLimitArgument(text);
      if (value === undefined) throw new UsageError(`--${flag} must be a whole number from 1 to 1000000, or off`);
      changes[limit] = value;
    }
    await printJson(await saveRiskConfig(changes));
  },
};

const riskShow: Command = {
  name: 'risk:show',
  description: 'Prints the limits of config/risk as the service applies them (null: off) as JSON.',
  flags: {},
  uses: { firestore: true },
  run: async () => printJson(await loadRiskConfig()),
};

const holdsList: Command = {
  name: 'holds:list',
  description:
    'Prints the holds newest first, as GET /admin/holds pages them (following its cursor): the open ones, or ' +
    'with --all every hold.',
  flags: {
    all: { description: 'released and rejected holds too' },
    json: { description: 'print the holds as JSON instead, as the API shows them' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const holds: HoldView[] = [];
    let cursor: string | undefined;
    do {
      const page = await holdsPage(!flags.has('all'), 100, cursor);
      holds.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    await printListing(
      flags,
      holds,
      ['HELD AT', 'TRANSACTION', 'USER', 'KIOSK', 'POINTS', 'REASONS', 'RESOLUTION'],
      (hold) => [
        hold.heldAt,
        hold.transactionId,
        hold.userId,
        hold.kioskId,
        hold.points,
        hold.reasons.join(','),
        hold.resolution ?? 'open',
      ],
      'No holds.',
    );
  },
};

const decision = (resolution: HoldResolution): Command => ({
  name: resolution === 'released' ? 'holds:release' : 'holds:reject',
  description:
    resolution === 'released'
      ? 'Releases a hold as POST /admin/holds/{id}/release does: the points are credited now (the earn entry, ' +
        'both balances, the rank), the user is told. Prints { hold, newBalance } as JSON.'
      : 'Rejects a hold as POST /admin/holds/{id}/reject does: the points are never credited, the user is ' +
        'told. Prints { hold } as JSON.',
  flags: {
    transaction: { value: 'ID', description: 'the held transaction id (holds:list shows it)', required: true },
    reason: { value: 'TEXT', description: 'why, 1-200 characters', required: true },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { reason } = validateBody<HoldDecisionBody>('holdDecisionBody', { reason: flags.required('reason') });
    const outcome = await decideHold(flags.required('transaction'), { resolution, reason, by: cliActor() });
    await printJson(resolution === 'released' ? outcome : { hold: outcome.hold });
  },
});

const userSuspend: Command = {
  name: 'user:suspend',
  description:
    "Suspends a user as POST /admin/users/{id}/suspend does: every deposit's points held, redemptions refused. " +
    'Prints the user as JSON.',
  flags: {
    user: { value: 'ID', description: 'the user id', required: true },
    reason: { value: 'TEXT', description: 'why, 1-200 characters', required: true },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { reason } = validateBody<HoldDecisionBody>('suspensionBody', { reason: flags.required('reason') });
    await printJson(await setSuspension(flags.required('user'), { reason, by: cliActor() }));
  },
};

const userUnsuspend: Command = {
  name: 'user:unsuspend',
  description: 'Lifts a suspension as POST /admin/users/{id}/unsuspend does. Prints the user as JSON.',
  flags: { user: { value: 'ID', description: 'the user id', required: true } },
  uses: { firestore: true },
  run: async (flags) => printJson(await setSuspension(flags.required('user'), null)),
};

export const trustCommands: readonly Command[] = [
  riskSet,
  riskShow,
  holdsList,
  decision('released'),
  decision('rejected'),
  userSuspend,
  userUnsuspend,
];
