import type { CollectionReference } from 'firebase-admin/firestore';
import { logError, logWarn } from '../log';
import type { PushTransport } from '../adapters/push';
import { alertsCollection } from '../data/alerts';
import { expiryRemindersCollection } from '../data/expiryReminders';
import { pendingSince } from '../data/pendingEffects';
import { redemptionsCollection } from '../data/redemptions';
import { transactionsCollection } from '../data/transactions';
import { webhookEventsCollection } from '../data/webhookEvents';
import { pushOpenedAlert } from './alertPush';
import { applyRedemptionEffects } from './redemptionEffects';
import { applyExpiryReminderEffects } from './expiryReminders';
import { applyTransactionEffects } from './transactionEffects';
import { fanOutWebhookEvent } from './webhookFanOut';
import { voucherUsesCollection } from '../data/voucherUses';
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

export interface EffectsSweepOutcome {
  transactions: SweptKind;
  redemptions: SweptKind;
  alerts: SweptKind;
  expiryReminders: SweptKind;
  // Webhooks (contract §13).
  webhookEvents: SweptKind;
  voucherUses: SweptKind;
  // A person's data (§15): erased profiles whose notifications are deleted again.
  erasures: SweptKind;
}

/** Older than a trigger's longest run (its timeout), so a sweep never races a trigger still in its first delivery. */
export const DEFAULT_MIN_AGE_MS = 5 * 60_000;
/** Documents of each kind per sweep; the next sweep takes the rest. */
const SWEEP_LIMIT = 500;
/** Runs at once: each is a few small transactions (a transaction's may wait for its kiosk's fold). */
const SWEEP_CONCURRENCY = 8;

interface Sweepable {
  kind: keyof EffectsSweepOutcome;
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
  // A person's data (§15): no notification written by a trigger that read the user before the erasure survives it.
  {
    kind: 'erasures',
    collection: usersCollection,
    timeField: 'erasedAt',
    complete: finishErasure,
    sweptByDesign: true,
  },
];

async function sweepKind(sweepable: Sweepable, cutoff: Date, push: PushTransport): Promise<SweptKind> {
  const ids = await pendingSince(sweepable.collection(), sweepable.timeField, cutoff, SWEEP_LIMIT);
  const swept: SweptKind = { pending: ids.length, completed: 0, failed: 0 };
  for (let i = 0; i < ids.length; i += SWEEP_CONCURRENCY) {
    const batch = ids.slice(i, i + SWEEP_CONCURRENCY);
    const runs = await Promise.allSettled(batch.map((id) => sweepable.complete(id, push)));
    runs.forEach((run, j) => {
      if (run.status === 'rejected') {
        swept.failed++;
        logError('effects_sweep_run_failed', {
          kind: sweepable.kind,
          id: batch[j],
          code: (run.reason as { code?: unknown })?.code,
        });
      } else if (run.value === 'completed-now') swept.completed++;
    });
  }
  return swept;
}

/**
 * Completes the effects that no trigger finished (a delivery lost, an event whose
 * retries ran out) of the transactions, redemptions, alerts, expiry reminders, webhook
 * events and voucher uses recorded at least `minAgeMs` ago, and finishes the erasures
 * made at least that long ago, through the triggers' own claim-then-act services: whatever was
 * done is not done again, and a late trigger racing the sweep finds the claim (so a
 * push goes out at most once, a notification is written once, a transaction counted
 * on its kiosk once). Safe to run at any time and any number of times.
 */
export async function sweepPendingEffects(
  push: PushTransport,
  { minAgeMs = DEFAULT_MIN_AGE_MS, now = new Date() }: { minAgeMs?: number; now?: Date } = {},
): Promise<EffectsSweepOutcome> {
  const cutoff = new Date(now.getTime() - minAgeMs);
  const outcome = {} as EffectsSweepOutcome;
  for (const sweepable of SWEEPABLE) outcome[sweepable.kind] = await sweepKind(sweepable, cutoff, push);
  const lost = SWEEPABLE.some(({ kind, sweptByDesign }) => !sweptByDesign && outcome[kind].pending > 0);
  if (lost) logWarn('effects_sweep_found_pending', { ...outcome });
  return outcome;
}
