// Waiting for what happens after an answer (the transaction trigger's effects):
// polling with a deadline, and on timeout an error that says
// what was seen, so a failure in CI tells slow from lost from done twice.
import type { CollectionReference, DocumentSnapshot } from 'firebase-admin/firestore';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined,
 * or fails after `timeoutMs`. `explain` describes the state at the timeout.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  explain?: () => Promise<string>,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const state = explain ? `; ${await explain()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${state}`);
    }
    await pause(intervalMs);
  }
}

const isComplete = (snapshot: DocumentSnapshot): boolean => Boolean(snapshot.get('effects.completedAt'));

/**
 * Where the transaction trigger stands for every transaction in `transactions`: how
 * many have their effects completed, how many were counted on their kiosk, and
 * which are not.
 */
export async function describeTransactionEffects(transactions: CollectionReference): Promise<string> {
  const docs = (await transactions.get()).docs;
  const pending = docs.filter((doc) => !isComplete(doc));
  const counted = docs.filter((doc) => doc.get('effects.kioskCounted') !== undefined).length;
  const oldestPending = pending.map((doc) => doc.createTime.toMillis()).sort((a, b) => a - b)[0];
  const age = oldestPending === undefined ? '' : `, oldest pending created ${Date.now() - oldestPending} ms ago`;
  return (
    `${docs.length} transactions: ${docs.length - pending.length} with effects completed, ${counted} counted on their kiosk` +
    `${age}; pending: ${
      pending
        .slice(0, 10)
        .map((doc) => doc.id)
        .join(', ') || 'none'
    }`
  );
}

/**
 * Waits until the transaction trigger has completed the effects of the transactions
 * `ids` of `transactions` (or of every stored one: 'all') and returns their documents.
 */
export async function waitForEffects(
  transactions: CollectionReference,
  ids: readonly string[] | 'all',
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<DocumentSnapshot[]> {
  if (ids === 'all') {
    return waitFor(
      'the effects of every transaction',
      async () => {
        const docs = (await transactions.get()).docs;
        return docs.every(isComplete) ? docs : undefined;
      },
      timeoutMs,
      () => describeTransactionEffects(transactions),
      intervalMs,
    );
  }
  const completed = new Map<string, DocumentSnapshot>();
  const pendingIds = () => ids.filter((id) => !completed.has(id));
  return waitFor(
    ids.length === 1 ? `the effects of transaction ${ids[0]}` : `the effects of ${ids.length} transactions`,
    async () => {
      const pending = pendingIds();
      if (pending.length) {
        const snapshots = await transactions.firestore.getAll(...pending.map((id) => transactions.doc(id)));
        for (const snapshot of snapshots) if (isComplete(snapshot)) completed.set(snapshot.id, snapshot);
      }
      return pendingIds().length ? undefined : ids.map((id) => completed.get(id)!);
    },
    timeoutMs,
    async () =>
      `still pending: ${pendingIds().slice(0, 10).join(', ')}; ${await describeTransactionEffects(transactions)}`,
    intervalMs,
  );
}
