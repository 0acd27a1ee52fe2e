import { badRequest } from '../errors';
import { MAX_ID_LENGTH } from '../model/limits';

/** Firestore document id rules, which are also the rules for every id in a path. */
export function isValidDocumentId(id: string): boolean {
  return (
    id.length >= 1 &&
    id.length <= MAX_ID_LENGTH &&
    !id.includes('/') &&
    id !== '.' &&
    id !== '..' &&
    !/^__.*__$/s.test(id)
  );
}

export function assertDocumentId(id: string, field: string): string {
  if (!isValidDocumentId(id)) {
    throw badRequest(`${field} must be 1-${MAX_ID_LENGTH} characters, without "/", and not "." , ".." or "__...__"`);
  }
  return id;
}
