/** The emulators' state for a test file: cleared, triggers off and on, and waits for the triggers' work. */
import functionsTest from 'firebase-functions-test';
import type { DocumentData } from 'firebase-admin/firestore';
import { db } from '../../src/adapters/firestore';
import { kiosksCollection } from '../../src/data/kiosks';
import { transactionsCollection } from '../../src/data/transactions';
import { emulatorsFromEnv, setBackgroundTriggers } from '../harness/emulators';
import * as wait from '../harness/wait';

// The emulators were found by global-setup.ts before any test file runs.
const emulators = emulatorsFromEnv();
export const PROJECT_ID = emulators.projectId;

/** firebase-functions-test, to run a function's handler in-process (wrap); cleaned up after the file's tests. */
export function functionsTestEnv(): ReturnType<typeof functionsTest> {
  const env = functionsTest({ projectId: PROJECT_ID });
  afterAll(() => env.cleanup());
  return env;
}

export { clearEmulators as resetEmulators, setBackgroundTriggers } from '../harness/emulators';

/**
 * For the tests of the describe block it is called in: background triggers off (the
 * test runs the trigger's work itself), and on again after each.
 */
export function withoutBackgroundTriggers(): void {
  beforeEach(() => setBackgroundTriggers(false));
  afterEach(() => setBackgroundTriggers(true));
}
export { waitFor } from '../harness/wait';
export { db };

/** Where the transaction trigger stands for every stored transaction (for a timeout's explanation). */
export const describeTransactionEffects = (): Promise<string> =>
  wait.describeTransactionEffects(transactionsCollection());

/** Waits for the transaction trigger to finish and returns the transaction document. */
export async function waitForEffects(transactionId: string, timeoutMs = 30_000) {
  const [snapshot] = await wait.waitForEffects(transactionsCollection(), [transactionId], { timeoutMs });
  return snapshot.data()!;
}

/**
 * Waits until the transaction trigger has counted at least `items` items (plastic and
 * metal) on kiosk `kioskId` and returns the kiosk; at least, so that a double count
 * returns at once for the test to fail on rather than run into the timeout.
 */
export async function waitForKioskCount(kioskId: string, items: number, timeoutMs = 30_000) {
  const kiosk = async () => (await kiosksCollection().doc(kioskId).get()).data()!;
  const counted = (data: DocumentData): number => data.plasticCount + data.metalCount;
  return wait.waitFor(
    `kiosk ${kioskId} to count ${items} items`,
    async () => {
      const data = await kiosk();
      return counted(data) >= items ? data : undefined;
    },
    timeoutMs,
    async () => `the kiosk counts ${counted(await kiosk())} of ${items} items; ${await describeTransactionEffects()}`,
  );
}
