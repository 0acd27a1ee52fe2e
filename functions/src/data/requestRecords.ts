/**
 * `requestRecords/{id}`: how the service tells the request that wrote an adjustment's
 * ledger entry or a redemption from a later one, kept off the document itself, which
 * its user reads (firestore.rules; contract §8). Its id is the entry's or the
 * redemption's; it is created in the commit that creates that document and read with
 * it in one `getAll`, so it costs no round trip. No client rule matches it.
 */
import type { DocumentData } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';

export const requestRecordsCollection = () => db().collection('requestRecords');

export interface RequestRecord {
  /** Chosen once per call: a call that finds its own commit (its answer lost) is not a replay. */
  submissionId: string;
  /** The body of a keyed request, for telling a replay of its key (the same body) from a reuse (422); null: no key. */
  requestFingerprint: string | null;
}

/** A requestRecords/{id} document as first stored; the one place one is written out. */
export const newRequestRecord = (record: RequestRecord): DocumentData => ({ ...record });
