/** adjust, history: a user's points as operators correct and read them, through the same modules as the API. */
import { userInfo } from 'node:os';
import { historyPage, type LedgerEntryView } from '../../data/ledger';
import { getUser } from '../../data/users';
import { parseIdempotencyKey } from '../../domain/idempotency';
import type { AdjustmentBody } from '../../model/requestBodies';
import { validateBody } from '../../http/validation';
import { adjustBalance } from '../../services/adjustBalance';
import { numberOrText } from '../args';
import { note, print, printJson, type Command } from '../command';
import { textTable } from '../table';
import { MAX_ADJUSTMENT_POINTS, MAX_ADJUSTMENT_REASON_LENGTH } from '../../model/limits';
import { UsageError } from '../errors';

/** The largest page history reads at a time (as GET /user/{id}/history allows). */
const PAGE = 100;

/**
 * Who made an adjustment from the CLI, as its ledger entry records it (`by`): the
 * operating-system account that ran the command, as an admin's uid is in the API.
 */
export function cliActor(): string {
  let name = '';
  try {
    name = userInfo().username;
  } catch {
    // An account without a name (a container's bare uid): recorded as unknown.
  }
  return `cli:${name || 'unknown'}`;
}

const user = { value: 'ID', description: 'the user id', required: true } as const;

const adjust: Command = {
  name: 'adjust',
  description:
    "Adds POINTS (negative: takes them) to the user's currentPoints and totalPoints, so the rank follows, with a " +
    'reason the user sees in their history, as POST /admin/users/{id}/adjustments does (the same checks and ' +
    'messages; refused when either balance would go below 0). The ledger entry records cli:<your OS account> as ' +
    'who adjusted. Prints { adjustment, user } as JSON.',
  example: 'npm run admin -- adjust --user demo-alice --points -200 --reason "Deposit counted twice" --key ticket-4711',
  flags: {
    user,
    points: {
      value: 'POINTS',
      description: `a non-zero integer within ±${MAX_ADJUSTMENT_POINTS.toLocaleString('en')}`,
      required: true,
    },
    reason: { value: 'TEXT', description: `why, 1-${MAX_ADJUSTMENT_REASON_LENGTH} characters`, required: true },
    key: {
      value: 'KEY',
      description: 'an idempotency key: the same key for the same user applies once (as the API header)',
    },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { points, reason } = validateBody<AdjustmentBody>('adjustmentBody', {
      points: numberOrText(flags.required('points')),
      reason: flags.required('reason'),
    });
    const { replayed, ...answer } = await adjustBalance(flags.required('user'), {
      points,
      reason,
      by: cliActor(),
      idempotencyKey: parseIdempotencyKey(flags.get('key')),
    });
    if (replayed) await note('This key was used for this user before: nothing was applied now; the stored adjustment:');
    await printJson(answer);
  },
};

/** What an entry came from, in one cell. */
const detail = (entry: LedgerEntryView): string =>
  entry.transaction
    ? `kiosk ${entry.transaction.kioskId}: ${entry.transaction.plasticCount} plastic, ${entry.transaction.metalCount} metal`
    : (entry.reason ?? '');

const history: Command = {
  name: 'history',
  description:
    "Prints the user's ledger newest first, as GET /user/{id}/history pages it (following its cursor): when, " +
    'kind, points, the balance after, what it came from (the deposit, or the reason), and the entry id.',
  flags: {
    user,
    limit: { value: 'N', description: 'only the newest N entries (default: all)' },
    json: { description: 'print the entries as JSON instead, as the API shows them' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const userId = flags.required('user');
    const limitFlag = flags.get('limit');
    const limit = limitFlag === undefined ? Infinity : Number(limitFlag);
    if (limitFlag !== undefined && !(/^[0-9]+$/.test(limitFlag) && limit >= 1)) {
      throw new UsageError('--limit must be a positive integer');
    }
    await getUser(userId);
    const entries: LedgerEntryView[] = [];
    let cursor: string | undefined;
    do {
      const page = await historyPage(userId, Math.min(PAGE, limit - entries.length), cursor);
      entries.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && entries.length < limit);
    if (flags.has('json')) await printJson(entries);
    else await print(historyTable(entries));
    if (entries.length === 0) await note(`User ${userId} has no ledger entries.`);
    else if (cursor !== undefined) await note(`The newest ${entries.length}; more with a larger --limit.`);
  },
};

function historyTable(entries: readonly LedgerEntryView[]): string {
  const rows = entries.map((entry) => [
    `${entry.createdAt.slice(0, 19).replace('T', ' ')}Z`,
    entry.kind,
    entry.points,
    entry.balanceAfter,
    detail(entry),
    entry.id,
  ]);
  return textTable(['WHEN', 'KIND', 'POINTS', 'BALANCE', 'FROM', 'ENTRY'], rows);
}

export const pointsCommands: readonly Command[] = [adjust, history];
