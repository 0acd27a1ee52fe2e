import type { CollectionReference } from 'firebase-admin/firestore';
import { logError, logWarn } from '../log';
import type { PushTransport } from '../adapters/push';
import { alertsCollection } from '../data/alerts';
import { expiryRemindersCollection } from '../data/expiryReminders';
import { pendingSince, type PendingPosition } from '../data/pendingEffects';
import { readSweepCursor, saveSweepCursor } from '../data/sweepCursors';
import { timeBudget, type TimeBudget } from '../domain/timeBudget';
import { redemptionsCollection } from '../data/redemptions';
import { transactionsCollection } from '../data/transactions';
import { webhookEventsCollection } from '../data/webhookEvents';
import { pushOpenedAlert } from './alertPush';
import { applyRedemptionEffects } from './redemptionEffects';
import { applyExpiryReminderEffects } from './expiryReminders';
import { applyTransactionEffects } from './transactionEffects';
import { fanOutWebhookEvent } from './webhookFanOut';
import { voucherUsesCollection } from '../data/voucherUses';
import { holdDecisionsCollection } from '../data/holds';
import { applyHoldDecisionEffects } from './holds';
import { applyVoucherUseEffects } from './voucherUseEffects';
import { usersCollection } from '../data/users';
import { finishErasure } from './erasure';

/** What the sweep did for one kind of document. */
export interface SweptKind {
  /** Still pending when the sweep looked. */
  pending: number;
  /** Completed by the sweep (a late trigger that got there first is not counted). */
  completed: number;
  /** Whose run failed (logged); the next sweep tries again. */
  failed: number;
}

export interface EffectsSweepOutcome extends Record<SweepKind, SweptKind> {
  /** The time budget ran out before every kind was swept: the next run continues where this one stopped. */
  unfinished: boolean;
}

interface SweptKinds {
  transactions: SweptKind;
  redemptions: SweptKind;
  alerts: SweptKind;
  expiryReminders: SweptKind;
  // Webhooks (contract §13).
  webhookEvents: SweptKind;
  voucherUses: SweptKind;
  // Trust (§17): the telling of a release or a rejection of held points.
  holdDecisions: SweptKind;
  // A person's data (§15): erased profiles whose notifications are deleted again.
  erasures: SweptKind;
}

type SweepKind = keyof SweptKinds;

/** Older than a trigger's longest run (its timeout), so a sweep never races a trigger still in its first delivery. */
export const DEFAULT_MIN_AGE_MS = 5 * 60_000;
/** Documents of one kind read at once. */
const SWEEP_PAGE = 500;
/**
 * How long a scheduled run starts new work (domain/timeBudget.ts): a batch started
 * just before it ends takes at most the longest run of one document, a transaction's
 * 208 s (index.ts), so the run ends within 240 + 208 s and the cursor's write, under
 * the function's 540 s timeout.
 */
export const EFFECTS_SWEEP_BUDGET_MS = 240_000;
/** Runs at once: each is a few small transactions (a transaction's may wait for its kiosk's fold). */
const SWEEP_CONCURRENCY = 8;

interface Sweepable {
  kind: SweepKind;
  collection: () => CollectionReference;
  /** When the document was recorded. */
  timeField: string;
  /** The trigger's own claim-then-act service (an erasure's end, for erasures); `completed-now` when this run finished something. */
  complete: (id: string, push: PushTransport) => Promise<string>;
  /** Every document is pending until the sweep completes it: finding one is no sign of a lost delivery. */
  sweptByDesign?: true;
}

const SWEEPABLE: readonly Sweepable[] = [
  {
    kind: 'transactions',
    collection: transactionsCollection,
    timeField: 'createdAt',
    complete: applyTransactionEffects,
  },
  { kind: 'redemptions', collection: redemptionsCollection, timeField: 'createdAt', complete: applyRedemptionEffects },
  { kind: 'alerts', collection: alertsCollection, timeField: 'openedAt', complete: pushOpenedAlert },
  {
    kind: 'expiryReminders',
    collection: expiryRemindersCollection,
    timeField: 'createdAt',
    complete: applyExpiryReminderEffects,
  },
  // Webhooks (contract §13): the deliveries of an event, created and first queued.
  {
    kind: 'webhookEvents',
    collection: webhookEventsCollection,
    timeField: 'occurredAt',
    complete: (eventId) => fanOutWebhookEvent(eventId),
  },
  // Partners and vouchers (§12)
  { kind: 'voucherUses', collection: voucherUsesCollection, timeField: 'usedAt', complete: applyVoucherUseEffects },
  // Trust (§17)
  {
    kind: 'holdDecisions',
    collection: holdDecisionsCollection,
    timeField: 'createdAt',
    complete: applyHoldDecisionEffects,
  },
  // A person's data (§15): no notification written by a trigger that read the user before the erasure survives it.
  {
    kind: 'erasures',
    collection: usersCollection,
    timeField: 'erasedAt',
    complete: finishErasure,
    sweptByDesign: true,
  },
];

/**
 * Runs the pending documents of one kind, oldest first, after `after` (where the last
 * run stopped), a batch at a time, until none is left or the budget is spent; then
 * `stoppedAfter` is the last one taken. A document whose run fails is passed over
 * (logged): the next round tries it again, and never holds up those after it.
 */
async function sweepKind(
  sweepable: Sweepable,
  cutoff: Date,
  push: PushTransport,
  budget: TimeBudget,
  after: PendingPosition | undefined,
): Promise<{ swept: SweptKind; stoppedAfter?: PendingPosition }> {
  const swept: SweptKind = { pending: 0, completed: 0, failed: 0 };
  let position = after;
  for (;;) {
    const page = await pendingSince(sweepable.collection(), sweepable.timeField, cutoff, SWEEP_PAGE, position);
    for (let i = 0; i < page.length; i += SWEEP_CONCURRENCY) {
      const batch = page.slice(i, i + SWEEP_CONCURRENCY);
      swept.pending += batch.length;
      const runs = await Promise.allSettled(batch.map(({ id }) => sweepable.complete(id, push)));
      runs.forEach((run, j) => {
        if (run.status === 'rejected') {
          swept.failed++;
          logError('effects_sweep_run_failed', {
            kind: sweepable.kind,
            id: batch[j].id,
            code: (run.reason as { code?: unknown })?.code,
          });
        } else if (run.value === 'completed-now') swept.completed++;
      });
      position = batch.at(-1);
      const more = i + SWEEP_CONCURRENCY < page.length || page.length === SWEEP_PAGE;
      if (more && budget.spent()) return { swept, stoppedAfter: position };
    }
    if (page.length < SWEEP_PAGE) return { swept };
  }
}

/** Where a run stopped: the kind to go on with, after `after` (none: from its oldest). */
interface EffectsSweepCursor {
  kind: SweepKind;
  after?: PendingPosition;
}

/**
 * Completes the effects that no trigger finished (a delivery lost, an event whose
 * retries ran out) of the transactions, redemptions, alerts, expiry reminders, webhook
 * events and voucher uses recorded at least `minAgeMs` ago, and finishes the erasures
 * made at least that long ago, through the triggers' own claim-then-act services: whatever was
 * done is not done again, and a late trigger racing the sweep finds the claim (so a
 * push goes out at most once, a notification is written once, a transaction counted
 * on its kiosk once). Safe to run at any time and any number of times.
 *
 * It starts no new batch once `budgetMs` is spent, and stores where it stopped
 * (sweepCursors/effectsSweep): the next run continues from there (`unfinished`).
 */
export async function sweepPendingEffects(
  push: PushTransport,
  {
    minAgeMs = DEFAULT_MIN_AGE_MS,
    now = new Date(),
    budgetMs = EFFECTS_SWEEP_BUDGET_MS,
  }: { minAgeMs?: number; now?: Date; budgetMs?: number } = {},
): Promise<EffectsSweepOutcome> {
  const cutoff = new Date(now.getTime() - minAgeMs);
  const budget = timeBudget(budgetMs);
  const outcome = { unfinished: false } as EffectsSweepOutcome;
  for (const { kind } of SWEEPABLE) outcome[kind] = { pending: 0, completed: 0, failed: 0 };
  // A round goes through every kind once, from where the last run stopped; a round
  // done, the next starts at the same kind from its oldest (so the part before where
  // this round started is taken first). No kind and no document waits on another's backlog.
  const stored = (await readSweepCursor('effectsSweep')) as EffectsSweepCursor | undefined;
  const first = Math.max(
    0,
    SWEEPABLE.findIndex(({ kind }) => kind === stored?.kind),
  );
  let next: EffectsSweepCursor = { kind: SWEEPABLE[first].kind };
  for (let step = 0; step < SWEEPABLE.length; step++) {
    const sweepable = SWEEPABLE[(first + step) % SWEEPABLE.length];
    const after = step === 0 ? stored?.after : undefined;
    const { swept, stoppedAfter } = await sweepKind(sweepable, cutoff, push, budget, after);
    outcome[sweepable.kind] = swept;
    const following = SWEEPABLE[(first + step + 1) % SWEEPABLE.length].kind;
    // A kind with nothing pending costs one query: only one that did work may end the run.
    if (stoppedAfter) next = { kind: sweepable.kind, after: stoppedAfter };
    else if (step < SWEEPABLE.length - 1 && swept.pending > 0 && budget.spent()) next = { kind: following };
    else continue;
    outcome.unfinished = true;
    break;
  }
  await saveSweepCursor('effectsSweep', next);
  const lost = SWEEPABLE.some(({ kind, sweptByDesign }) => !sweptByDesign && outcome[kind].pending > 0);
  if (lost) logWarn('effects_sweep_found_pending', { ...outcome });
  return outcome;
}
