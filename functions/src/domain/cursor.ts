import { Timestamp } from 'firebase-admin/firestore';
import { badRequest } from '../errors';
import { assertDocumentId } from './ids';

/**
 * An opaque position in a list ordered by time then document id: the time to the
 * nanosecond and the id, as base64url. Clients pass it back as they got it.
 */
export function encodeCursor(time: Timestamp, id: string): string {
  return Buffer.from(JSON.stringify([time.seconds, time.nanoseconds, id])).toString('base64url');
}

const invalid = () => badRequest('cursor is not one this endpoint gave out');

export function decodeCursor(cursor: string): { time: Timestamp; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [seconds, nanoseconds, id] = parsed as unknown[];
  if (!Number.isSafeInteger(seconds) || !Number.isSafeInteger(nanoseconds) || typeof id !== 'string') throw invalid();
  if ((nanoseconds as number) < 0 || (nanoseconds as number) > 999_999_999) throw invalid();
  try {
    assertDocumentId(id, 'cursor');
    return { time: new Timestamp(seconds as number, nanoseconds as number), id };
  } catch {
    throw invalid();
  }
}
