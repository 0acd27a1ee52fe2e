/**
 * Wiring only: which handler runs as which Cloud Function, with what options.
 * The handlers live in http/, triggers/ and services/.
 *
 * Cold starts (measured by `npm run bench`): every deployed function is a service of
 * its own, and each of its instances loads this file with FUNCTION_TARGET set to that
 * function's name. Each function is therefore defined, and its modules loaded, only
 * where it runs: an `api` instance does not load the Firestore and 1st gen Auth
 * providers or the trigger code (~40 ms of each cold start). Without FUNCTION_TARGET
 * (deploy-time discovery, tests) every function is defined.
 */
// From v2/options, not the v2 barrel: 'firebase-functions/v2' loads every v2 provider
// (database, pubsub, storage, ...) and firebase-admin/database, ~40 ms of CPU at each
// cold start for nothing. Same function either way.
import { setGlobalOptions } from 'firebase-functions/v2/options';
import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/v2/firestore';
import { apiMinInstances, smtpPassword } from './config';

setGlobalOptions({ region: 'us-central1' });

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
      // Production knobs, explained in the README ("Production settings").
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
 */
function defineCreateTrigger(
  name: string,
  options: { document: string; maxInstances?: number },
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
  { document: 'transactions/{transactionId}', maxInstances: 20 },
  () =>
    (require('./triggers/transactionCreated') as typeof import('./triggers/transactionCreated')).onTransactionCreated,
);

/** applyRedemptionEffects: the notification and the push, each once. */
export const redemptionEffects = defineCreateTrigger(
  'redemptionEffects',
  { document: 'redemptions/{redemptionId}', maxInstances: 20 },
  () => (require('./triggers/redemptionCreated') as typeof import('./triggers/redemptionCreated')).onRedemptionCreated,
);

/** 2nd gen has no non-blocking Auth trigger, hence the 1st gen API. */
export const provisionUserProfile = defineWhereServed('provisionUserProfile', () => {
  const authV1 = require('firebase-functions/v1/auth') as typeof import('firebase-functions/v1/auth');
  const { provisionUser } = require('./triggers/provisionUser') as typeof import('./triggers/provisionUser');
  return authV1.user().onCreate((user) => provisionUser(user));
});

/** pushOpenedAlert: the push of an opened alert, once. */
export const alertPush = defineCreateTrigger(
  'alertPush',
  { document: 'alerts/{alertId}' },
  () => (require('./triggers/alertCreated') as typeof import('./triggers/alertCreated')).onAlertCreated,
);

/**
 * Opens `silent` alerts every 5 minutes. The functions emulator runs no schedules
 * (firebase-tools issue 2034): `npm start` runs the same handler on a timer.
 */
export const silentKioskSweep = defineWhereServed('silentKioskSweep', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runSilentSweep } = require('./triggers/silentSweep') as typeof import('./triggers/silentSweep');
  return onSchedule({ schedule: 'every 5 minutes', memory: '256MiB', maxInstances: 1 }, async () => {
    await runSilentSweep();
  });
});

/**
 * Completes every 5 minutes the effects no trigger finished (a lost delivery, an
 * event whose retries ran out). `npm start` runs the same handler on a timer.
 */
export const effectsSweep = defineWhereServed('effectsSweep', () => {
  const { onSchedule } = require('firebase-functions/v2/scheduler') as typeof import('firebase-functions/v2/scheduler');
  const { runEffectsSweep } = require('./triggers/effectsSweep') as typeof import('./triggers/effectsSweep');
  return onSchedule(
    { schedule: 'every 5 minutes', memory: '256MiB', maxInstances: 1, timeoutSeconds: 540 },
    async () => {
      await runEffectsSweep();
    },
  );
});
