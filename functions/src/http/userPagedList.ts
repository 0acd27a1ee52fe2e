import type { VerifiedCaller } from '../adapters/identity';
import { getUser } from '../data/users';
import { userRoute } from './accessRoutes';
import { PAGE_ERRORS, pageLimit, pageQuery } from './paging';
import type { OperationDescription, SchemaName } from './apiDescription/operation';
import type { Route } from './types';

/** A page of a user's list, as data/userPages.ts reads it. */
type ReadPage<T> = (
  userId: string,
  limit: number,
  cursor: string | undefined,
) => Promise<{ items: T[]; nextCursor: string | null }>;

/** What differs between the "that user, or an admin" paged lists: the rest of the route is this file's. */
export interface UserPagedList<T> {
  /** After /user/:userId/, e.g. "history". */
  segment: string;
  /** The body's key of the items, e.g. "entries". */
  itemsKey: string;
  /** The items, capitalised, for the `limit` description, e.g. "Entries". */
  itemsNoun: string;
  readPage: ReadPage<T>;
  /** The schema of an item, e.g. 'Redemption'. */
  itemSchema: SchemaName;
  example: T;
  doc: Pick<OperationDescription<undefined>, 'operationId' | 'summary' | 'description' | 'tag'>;
}

/** GET /user/{userId}/{segment}: one page of the user's items, newest first, for that user or an admin. */
export function userPagedListRoute<T>(list: UserPagedList<T>): Route<undefined, VerifiedCaller> {
  return userRoute({
    method: 'GET',
    path: `/user/:userId/${list.segment}`,
    query: pageQuery(list.itemsNoun),
    handler: async ({ params, query }) => {
      const limit = pageLimit(query.limit);
      const [, { items, nextCursor }] = await Promise.all([
        getUser(params.userId),
        list.readPage(params.userId, limit, query.cursor),
      ]);
      return { body: { success: true, [list.itemsKey]: items, nextCursor } };
    },
    doc: {
      ...list.doc,
      responses: {
        200: {
          description: `One page of ${list.itemsNoun.toLowerCase()}`,
          schema: (kit) =>
            kit.successBody({
              [list.itemsKey]: kit.Type.Array(kit[list.itemSchema]),
              nextCursor: kit.nullable(
                kit.Type.String({ description: 'Pass as `cursor` for the next page; null: no more' }),
              ),
            }),
          example: { success: true, [list.itemsKey]: [list.example], nextCursor: null },
        },
        400: PAGE_ERRORS,
        404: { description: 'No user has this id', codes: ['not-found'] },
      },
    },
  });
}
