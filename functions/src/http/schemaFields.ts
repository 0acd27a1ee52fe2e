/** JSON Schema fields that the request and response schemas of several files share. */
import { MAX_ID_LENGTH } from '../domain/ids';

export const id = { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH } as const;
export const title = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const count = { type: 'integer', minimum: 0 } as const;
