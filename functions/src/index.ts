/**
 * Wiring only: which handler runs as which Cloud Function, with what options.
 * The handlers live in http/, triggers/ and services/.
 *
 * Cold starts (measured by `npm run bench`): every deployed function is a service of
 * its own, and each of its instances loads this file with FUNCTION_TARGET set to that
 * function's name. Each function is therefore defined, and its modules loaded, only
 * where it runs: an `api` instance does not load the Firestore and scheduler
 * providers or the trigger code (~40 ms of each cold start). Without FUNCTION_TARGET
 * (deploy-time discovery, tests) every function is defined.
 */
// From v2/options, not the v2 barrel: 'firebase-functions/v2' loads every v2 provider
// (database, pubsub, storage, ...) and firebase-admin/database, ~40 ms of CPU at each
// cold start for nothing. Same function either way.
import { setGlobalOptions } from 'firebase-functions/v2/options';
import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/v2/firestore';
import { apiMinInstances, functionsRegion, smtpPassword } from './config';

// FUNCTIONS_REGION: the Firestore database's region (docs/operations.md, Production settings).
setGlobalOptions({ region: functionsRegion });

const target = process.env.FUNCTION_TARGET;

/** `define()` where function `name` runs (or everywhere, when no target is set). */
function defineWhereServed<T>(name: string, define: () => T): T {
  const serves = !target || process.env.FUNCTIONS_CONTROL_API === 'true' || target === name;
  return serves ? define() : (undefined as T);
}

/**
 * cors: false hands CORS to the router, which grants only the configured origins;
 * it also stops the emulator from granting every origin (its enableCors debug mode).
 */
export const api = defineWhereServed('api', () => {
  const { onRequest } = require('firebase-functions/v2/https') as typeof import('firebase-functions/v2/https');
  const { handleApiRequest } = require('./http/api') as typeof import('./http/api');
  return onRequest(
    {
      secrets: [smtpPassword],
      cors: false,
      // Production knobs, explained in docs/operations.md ("Production settings").
      memory: '512MiB',
      cpu: 1,
      concurrency: 40,
      minInstances: apiMinInstances,
      maxInstances: 20,
    },
    handleApiRequest,
  );
});

/**
 * A Firestore create trigger with retry: a failed run is redelivered, and the handler's
 * service claims each effect before acting, so a redelivery repeats none.
 *
 * `timeoutSeconds` is longer than the run's longest path (the 60 s default is not):
 * a run cut off while its push is being sent leaves the push claimed "sending", and
 * the redelivery can only record it "interrupted". Each trigger states its sum; the
 * parts (checked against the code's constants by test/unit/trigger-timeouts.test.ts):
 * - the kiosk fold lease wait, 45 s (kioskFold WAIT_FOR_LEASE_MS), then one fold:
 *   1 s apart from the last (FOLD_INTERVAL_MS) and its Firestore transaction, 30 s;
 * - the claim, a Firestore transaction retried for up to 30 s (contention.deadlineMs in adapters/firestore.ts);
 * - the push: firebase-admin's FCM request, 15 s, tried up to 5 times with 1 + 2 + 4 s
 *   of back-off between (its default retry config, without a Retry-After), 82 s;
 * - the push outcome write, retried for up to 20 s (notifyOnce PERSIST_DEADLINE_MS).
 */
function defineCreateTrigger(
  name: string,
  options: { document: string; timeoutSeconds: number; maxInstances?: number },
  loadHandler: () => (
    event: FirestoreEvent<QueryDocumentSnapshot | undefined, Record<string, string>>,
  ) => Promise<void>,
) {
  return defineWhereServed(name, () => {
    const { onDocumentCreated } =
      require('firebase-functions/v2/firestore') as typeof import('firebase-functions/v2/firestore');
    return onDocumentCreated({ ...options, retry: true, memory: '256MiB' }, loadHandler());
  });
}

/** applyTransactionEffects: kiosk counters and daily figures, notification, push. */
export const transactionEffects = defineCreateTrigger(
  'transactionEffects',
  // Lease wait 45 + fold 1 + 30 + claim 30 + push 82 + outcome write 20 = 208 s.
  { document: 'transactions/{transactionId}', timeoutSeconds: 240, maxInstances: 20 },
  () =>
    (require('./triggers/transactionCreated') as typeof import('./triggers/transactionCreated')).onTransactionCreated,
);

/** applyTransactionEffects again for a claimed anonymous deposit (§18): the claimer's notification and push. */
export const claimEffects = defineCreateTrigger(
  'claimEffects',
  // As transactionEffects (its fold finds the transaction counted): 208 s.
  { document: 'claims/{transactionId}', timeoutSeconds: 240, maxInstances: 20 },
  () => (require('./triggers/claimCreated') as typeof import('./triggers/claimCreated')).onClaimCreated,
);

/** applyRedemptionEffects: the notification and the push, each once. */
export const redemptionEffects = defineCreateTrigger(
  'redemptionEffects',
  // Claim 30 + push 82 + outcome write 20 = 132 s.
  { document: 'redemptions/{redemptionId}', timeoutSeconds: 180, maxInstances: 20 },
  () => (require('./triggers/redemptionCreated') as typeof import('./triggers/redemptionCreated')).onRedemptionCreated,
);

/** applyVoucherUseEffects: the notification and the push of a voucher a partner used (§12), each once. */
export const voucherUseEffects = defineCreateTrigger(
  'voucherUseEffects',
  // Claim 30 + push 82 + outcome write 20 = 132 s.
  { document: 'voucherUses/{redemptionId}', timeoutSeconds: 180, maxInstances: 20 },
  () => (require('./triggers/voucherUsed') as typeof import('./triggers/voucherUsed')).onVoucherUsed,
);

/** pushOpenedAlert: the push of an opened alert, once. */
// Trust (contract §17): the user is told of a release or a rejection of their held points.
export const holdDecisionEffects = defineCreateTrigger(
  'holdDecisionEffects',
  // Claim 30 + push 82 + outcome write 20 = 132 s.
  { document: 'holdDecisions/{transactionId}', timeoutSeconds: 180, maxInstances: 20 },
  () => (require('./triggers/holdDecided') as typeof import('./triggers/holdDecided')).onHoldDecided,
);

export const alertPush = defineCreateTrigger(
  'alertPush',
  // Claim 30 + push 82 + the outcome write (one try, logged when it fails) = 112 s.
  { document: 'alerts/{alertId}', timeoutSeconds: 180 },
  () => (require('./triggers/alertCreated') as typeof import('./triggers/alertCreated')).onAlertCreated,
);

/**
 * Every scheduled function states its schedule and its timeout, and either fits its
 * work in that timeout or stops in time and continues on its next run (contract, Part
 * four: every sweep finishes or continues); docs/operations.md lists them.
 *
 * Opens `silent` alerts every 5 minutes. The functions emulator runs no schedules
 * (firebase-tools issue 2034): `npm start` runs the same handler on a timer.
 */
export const silentKioskSweep = defineWhereServed('silentKioskSweep', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runSilentSweep } = require('./triggers/silentSweep') as typeof import('./triggers/silentSweep');
  return onSchedule(
    // Its time budget, 120 s, then one batch of kiosks and one kiosk's fold, 30 s each (triggers/silentSweep.ts): under 240 s.
    { schedule: 'every 5 minutes', memory: '256MiB', maxInstances: 1, timeoutSeconds: 240 },
    async () => {
      await runSilentSweep();
    },
  );
});

/**
 * Completes every 5 minutes the effects no trigger finished (a lost delivery, an
 * event whose retries ran out). `npm start` runs the same handler on a timer.
 */
export const effectsSweep = defineWhereServed('effectsSweep', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runEffectsSweep } = require('./triggers/effectsSweep') as typeof import('./triggers/effectsSweep');
  return onSchedule(
    // Its time budget, 240 s, and one batch after it, 208 s (services/pendingEffects.ts): under 540 s.
    { schedule: 'every 5 minutes', memory: '256MiB', maxInstances: 1, timeoutSeconds: 540 },
    async () => {
      await runEffectsSweep();
    },
  );
});

/**
 * Expires points past their date and sends the reminders 30 days ahead (contract
 * §14): the day's run starts just after the UTC day begins (00:05) and, when its time
 * budget ran out, continues each hour after (at :05) from where it stopped until done.
 * `admin expiry:run` runs the same service; `npm start` runs it on a timer.
 */
export const pointsExpiry = defineWhereServed('pointsExpiry', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runDailyExpiry } = require('./triggers/pointsExpiry') as typeof import('./triggers/pointsExpiry');
  return onSchedule(
    // Its time budget, 300 s, and one group of users after it, 162 s (triggers/pointsExpiry.ts): under 540 s.
    { schedule: '5 * * * *', timeZone: 'Etc/UTC', memory: '256MiB', maxInstances: 1, timeoutSeconds: 540 },
    async () => {
      await runDailyExpiry();
    },
  );
});

/**
 * Webhooks (contract §13). An event staged in a commit (data/webhookEvents.ts) fans
 * out to one delivery per webhook taking it; each attempt of a delivery is a task of
 * the task queue function `deliverWebhook`, queued with the wait WEBHOOK_RETRY_SECONDS
 * gives it. Fan-out: the delivery creates and the task enqueues, each retried for up to
 * 30 s by the SDKs, well within 120 s.
 */
export const webhookFanOut = defineCreateTrigger(
  'webhookFanOut',
  { document: 'webhookEvents/{eventId}', timeoutSeconds: 120, maxInstances: 20 },
  () =>
    (require('./triggers/webhookEventCreated') as typeof import('./triggers/webhookEventCreated'))
      .onWebhookEventCreated,
);

/**
 * One attempt of one delivery per task. The attempt's own retries (the back-off of
 * WEBHOOK_RETRY_SECONDS) are tasks queued by the attempt before; `retryConfig` only
 * covers a run that failed to finish (an error, a crash, a claim another run holds):
 * redelivered after 30 s and more, up to 10 times; a failure on the last time ends the
 * delivery `failed` (triggers/webhookTask.ts), retryable by the operator. A run: the claim (a transaction,
 * up to 30 s), the POST (10 s), recording it (30 s) and queueing the next: under
 * 120 s, less than the claim's lease (webhookDelivery.ts CLAIM_LEASE_MS, 150 s).
 */
export const deliverWebhook = defineWhereServed('deliverWebhook', () => {
  const { onTaskDispatched } = require('firebase-functions/v2/tasks') as typeof import('firebase-functions/v2/tasks');
  const { onDeliveryTask, DELIVERY_TASK_MAX_ATTEMPTS } =
    require('./triggers/webhookTask') as typeof import('./triggers/webhookTask');
  return onTaskDispatched(
    {
      retryConfig: {
        maxAttempts: DELIVERY_TASK_MAX_ATTEMPTS,
        minBackoffSeconds: 30,
        maxBackoffSeconds: 600,
        maxDoublings: 4,
      },
      rateLimits: { maxConcurrentDispatches: 50 },
      timeoutSeconds: 120,
      memory: '256MiB',
      maxInstances: 20,
    },
    (request) => onDeliveryTask(request),
  );
});

/**
 * Erases, every day, the users whose Auth account was deleted in the Firebase
 * console (no 2nd gen trigger hears of it). `npm start` runs the same handler on a timer.
 */
export const usersSweep = defineWhereServed('usersSweep', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runUsersSweep } = require('./triggers/usersSweep') as typeof import('./triggers/usersSweep');
  return onSchedule(
    { schedule: 'every day 03:00', timeZone: 'Etc/UTC', memory: '256MiB', maxInstances: 1, timeoutSeconds: 540 },
    async () => {
      await runUsersSweep();
    },
  );
});
