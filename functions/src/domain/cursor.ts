import { isValidDocumentId } from './ids';

/**
 * A position in a list ordered by a timestamp, then by document id: the last item of
 * a page. Paging resumes after it, so items added meanwhile never shift a page (an
 * index, never an offset). Opaque to clients: base64url of `seconds.nanos.id`.
 */
export interface Position {
  seconds: number;
  nanoseconds: number;
  id: string;
}

/** The range of a Firestore Timestamp: years 1 to 9999. */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;

export const encodeCursor = ({ seconds, nanoseconds, id }: Position): string =>
  Buffer.from(`${seconds}.${nanoseconds}.${id}`, 'utf8').toString('base64url');

/** The position a cursor names, or undefined for anything this service did not hand out. */
export function decodeCursor(cursor: string): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  const match = /^(-?\d{1,12})\.(\d{1,9})\.(.+)$/s.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !isValidDocumentId(match[3]) || !match[3].isWellFormed()) return undefined;
  const position = { seconds: Number(match[1]), nanoseconds: Number(match[2]), id: match[3] };
  if (position.seconds < MIN_SECONDS || position.seconds > MAX_SECONDS) return undefined;
  return encodeCursor(position) === cursor ? position : undefined;
}
