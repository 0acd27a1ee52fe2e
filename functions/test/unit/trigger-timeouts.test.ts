import { readFileSync } from 'node:fs';
import { contention } from '../../src/adapters/firestore';
import { FOLD_INTERVAL_MS, WAIT_FOR_LEASE_MS } from '../../src/services/kioskFold';
import { PERSIST_DEADLINE_MS } from '../../src/services/notifyOnce';

interface Endpoint {
  platform: string;
  timeoutSeconds?: number;
  eventTrigger?: { retry?: boolean };
}

const endpointOf = (name: string): Endpoint => {
  const exported = require('../../src/index') as Record<string, { __endpoint: Endpoint }>;
  return exported[name].__endpoint;
};

/**
 * firebase-admin's FCM send, at its worst: each request times out after 15 s and is
 * tried 5 times, 1 + 2 + 4 s apart (defaultRetryConfig: 4 retries, back-off factor
 * 0.5, no delay before the first retry). Pinned to the installed firebase-admin.
 */
const FCM_SEND_WORST_MS = 5 * 15_000 + (1 + 2 + 4) * 1_000;

describe('event triggers: 2nd gen, retried, and given longer than their longest path (index.ts)', () => {
  test("the FCM figures are firebase-admin's", () => {
    const lib = require.resolve('firebase-admin/messaging').replace(/messaging[/\\]index\.js$/, '');
    const messaging = readFileSync(`${lib}messaging/messaging-api-request-internal.js`, 'utf8');
    const requests = readFileSync(`${lib}utils/api-request.js`, 'utf8');
    expect(messaging).toContain('const FIREBASE_MESSAGING_TIMEOUT = 15000;');
    expect(requests).toMatch(
      /maxRetries: 4,\s+statusCodes: \[503\],\s+ioErrorCodes: \['ECONNRESET', 'ETIMEDOUT'\],\s+backOffFactor: 0\.5,/,
    );
  });

  const push = FCM_SEND_WORST_MS + PERSIST_DEADLINE_MS;
  test.each([
    ['transactionEffects', WAIT_FOR_LEASE_MS + FOLD_INTERVAL_MS + contention.deadlineMs + contention.deadlineMs + push],
    ['claimEffects', WAIT_FOR_LEASE_MS + FOLD_INTERVAL_MS + contention.deadlineMs + contention.deadlineMs + push],
    ['redemptionEffects', contention.deadlineMs + push],
    ['voucherUseEffects', contention.deadlineMs + push],
    // The outcome write is tried once; the push itself is the long part.
    ['alertPush', contention.deadlineMs + FCM_SEND_WORST_MS],
  ])('%s: over %d ms', (name, longestPathMs) => {
    const endpoint = endpointOf(name);
    expect(endpoint.platform).toBe('gcfv2');
    expect(endpoint.eventTrigger?.retry).toBe(true);
    expect((endpoint.timeoutSeconds ?? 60) * 1000).toBeGreaterThan(longestPathMs);
  });

  test.each(['api', 'silentKioskSweep', 'pointsExpiry', 'usersSweep'])('%s is 2nd gen too', (name) => {
    expect(endpointOf(name).platform).toBe('gcfv2');
  });
});
