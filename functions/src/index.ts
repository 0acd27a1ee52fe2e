/**
 * Wiring only: which handler runs as which Cloud Function, with what options.
 * The handlers live in http/, triggers/ and services/.
 */
import { setGlobalOptions } from 'firebase-functions/v2';
import { onRequest } from 'firebase-functions/v2/https';
import { onDocumentCreated } from 'firebase-functions/v2/firestore';
import * as authV1 from 'firebase-functions/v1/auth';
import { smtpPassword } from './config';
import { handleApiRequest } from './http/api';
import { onTransactionCreated } from './triggers/transactionCreated';
import { provisionUser } from './triggers/provisionUser';

setGlobalOptions({ region: 'us-central1' });

/**
 * cors: false hands CORS to the router, which grants only the configured origins;
 * it also stops the emulator from granting every origin (its enableCors debug mode).
 */
export const api = onRequest({ secrets: [smtpPassword], cors: false }, handleApiRequest);

/** retry: a failed run is redelivered; applyTransactionEffects makes that safe. */
export const transactionEffects = onDocumentCreated(
  { document: 'transactions/{transactionId}', retry: true },
  onTransactionCreated,
);

/** 2nd gen has no non-blocking Auth trigger, hence the 1st gen API. */
export const provisionUserProfile = authV1.user().onCreate((user) => provisionUser(user));
