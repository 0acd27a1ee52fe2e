import { randomUUID } from 'node:crypto';
import { Timestamp, type DocumentReference, type DocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';
import { judgeWindow, type Hit } from '../domain/rateLimit';

export interface Bucket {
  /** What is limited, e.g. "otp-address"; part of the document id. */
  scope: string;
  /** Who is limited; hashed, so addresses are not stored in the clear. */
  key: string;
  limit: number;
  windowMs: number;
}

/** The id of a bucket's document in `rateLimits`: hashed, so keys (addresses) are not stored in the clear. */
export const bucketDocumentId = (bucket: Pick<Bucket, 'scope' | 'key'>): string =>
  sha256Hex(`${bucket.scope}:${bucket.key}`);

const bucketRef = (bucket: Bucket) => db().collection('rateLimits').doc(bucketDocumentId(bucket));

export type Reservation =
  { reserved: true; id: string } | { reserved: false; bucket: Bucket; retryAfterSeconds: number };

/**
 * Takes one slot in every bucket, or none: a refused request costs nothing.
 * The slot is held before the work is done so a burst cannot overshoot the limit;
 * `release` gives it back when the work failed.
 *
 * The slot's id is chosen once per request: if the commit lands but its answer is
 * lost, the SDK runs the body again, which then finds its own slot instead of
 * taking a second one.
 */
export async function reserve(buckets: Bucket[]): Promise<Reservation> {
  const id = randomUUID();
  return runTransaction(async (tx) => {
    const now = Date.now();
    const snapshots = await tx.getAll(...buckets.map(bucketRef));
    const hitsOf = (i: number) => (snapshots[i].get('hits') as Hit[] | undefined) ?? [];
    if (hitsOf(0).some((hit) => hit.id === id)) return { reserved: true, id };
    const verdicts = buckets.map((bucket, i) => ({
      bucket,
      verdict: judgeWindow(hitsOf(i), bucket.limit, bucket.windowMs, now),
    }));
    const refused = verdicts
      .filter(({ verdict }) => !verdict.allowed)
      .sort((a, b) => b.verdict.retryAfterSeconds - a.verdict.retryAfterSeconds)[0];
    if (refused) {
      return { reserved: false, bucket: refused.bucket, retryAfterSeconds: refused.verdict.retryAfterSeconds };
    }
    for (const { bucket, verdict } of verdicts) {
      tx.set(bucketRef(bucket), {
        scope: bucket.scope,
        hits: [...verdict.live, { id, at: now }],
        expireAt: Timestamp.fromMillis(now + bucket.windowMs),
      });
    }
    return { reserved: true, id };
  });
}

export async function release(buckets: Bucket[], reservationId: string): Promise<void> {
  await runTransaction(async (tx) => {
    const snapshots = await tx.getAll(...buckets.map(bucketRef));
    snapshots.forEach((snapshot) => {
      const hits = (snapshot.get('hits') as Hit[] | undefined) ?? [];
      const kept = hits.filter((hit) => hit.id !== reservationId);
      if (kept.length !== hits.length) tx.update(snapshot.ref, { hits: kept });
    });
  });
}

export type CountedLookup<T> = { refused: true; retryAfterSeconds: number } | { refused: false; found: T | undefined };

/**
 * A lookup that counts when it finds nothing, in one transaction with the bucket: while
 * the bucket is full nothing is looked up (refused); a lookup that finds nothing takes a
 * slot, one that finds something takes none and writes nothing. Lookups at once cannot
 * outrun the count: a slot taken changes the bucket every other one read, so they run
 * again against it. `prefetch`: documents the lookup reads whatever it is asked, read
 * with the bucket in one round trip and handed to `lookUp`, which alone looks at them,
 * after the verdict (a refused lookup learns nothing of them).
 */
export async function lookUpCounted<T>(
  bucket: Bucket,
  lookUp: (tx: Transaction, prefetched: DocumentSnapshot[]) => Promise<T | undefined>,
  prefetch: DocumentReference[] = [],
): Promise<CountedLookup<T>> {
  const id = randomUUID();
  return runTransaction(async (tx) => {
    const now = Date.now();
    const [bucketSnap, ...prefetched] = await tx.getAll(bucketRef(bucket), ...prefetch);
    const hits = (bucketSnap.get('hits') as Hit[] | undefined) ?? [];
    // A commit whose answer was lost, run again: its slot is taken, it found nothing.
    if (hits.some((hit) => hit.id === id)) return { refused: false, found: undefined };
    const verdict = judgeWindow(hits, bucket.limit, bucket.windowMs, now);
    if (!verdict.allowed) return { refused: true, retryAfterSeconds: verdict.retryAfterSeconds };
    const found = await lookUp(tx, prefetched);
    if (found === undefined) {
      tx.set(bucketRef(bucket), {
        scope: bucket.scope,
        hits: [...verdict.live, { id, at: now }],
        expireAt: Timestamp.fromMillis(now + bucket.windowMs),
      });
    }
    return { refused: false, found };
  });
}
