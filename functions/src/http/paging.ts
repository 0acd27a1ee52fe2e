// The `limit` and `cursor` of the per-user lists (history, redemptions): one rule, one description.
import { badRequest } from '../errors';
import type { QueryParameter } from './apiDescription/operation';

const MAX_PAGE = 100;
const DEFAULT_PAGE = 20;

/** `limit`: 1-100, default 20; anything else is a 400 naming it. */
export function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE;
  const limit = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE)) throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE}`);
  return limit;
}

/** The query parameters of a page of `items` (e.g. "Entries"). */
export const pageQuery = (items: string): Readonly<Record<string, QueryParameter>> => ({
  limit: {
    description: `${items} per page, 1-${MAX_PAGE} (default ${DEFAULT_PAGE})`,
    schema: ({ Type }) => Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE }),
  },
  cursor: {
    description: '`nextCursor` of the previous page, as given',
    schema: ({ Type }) => Type.String({ minLength: 1, maxLength: 1000 }),
  },
});

/** The 400 of a page request. */
export const PAGE_ERRORS = {
  description: `\`limit\` outside 1-${MAX_PAGE}, or a \`cursor\` this endpoint did not give`,
  codes: ['invalid-argument'],
} as const;
