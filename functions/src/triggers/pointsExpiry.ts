import { pushTransport } from '../adapters/push';
import { utcDay } from '../domain/rewards';
import { runExpiry, type ExpiryRunOutcome } from '../services/pointsExpiry';

/**
 * The daily expiry run (00:05 UTC): expires points past their date and reminds users
 * 30 days ahead, for today's UTC day. The functions emulator runs no schedules
 * (firebase-tools issue 2034), so `admin expiry:run` runs this same service for any
 * day, `npm start` runs it on a timer, and the tests run it through
 * firebase-functions-test.
 */
export const runDailyExpiry = (): Promise<ExpiryRunOutcome> => runExpiry(utcDay(new Date()), pushTransport());
