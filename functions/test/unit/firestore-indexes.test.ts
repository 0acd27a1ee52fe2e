/**
 * "Every query the service and the CLI run has the index it needs in
 * firestore.indexes.json, checked by a test" (contract part three). The emulator
 * enforces no composite index, so no emulator run can show a missing one: a deployed
 * query without its index fails (FAILED_PRECONDITION) where every test passed.
 *
 * So every query in functions/src is listed below with its shape, and the test checks
 * three things: that each listed query is still written as listed, that no line of
 * src/ filters or orders a query without being listed (a new query fails this test
 * until it is described here), and that each shape's composite index is deployed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

type Direction = 'ASCENDING' | 'DESCENDING';

interface QueryShape {
  /** Where the query is written (under functions/src) and its lines as written there, trimmed. */
  file: string;
  lines: string[];
  collection: string;
  /** Fields compared with `==`. */
  equal?: string[];
  /** The field of `<`, `<=`, `>`, `>=` filters (Firestore allows one). */
  range?: string;
  /** orderBy clauses in order; the id (`__name__`) last where the query orders by it. */
  orderBy?: [string, Direction][];
}

const ASC = 'ASCENDING';
const DESC = 'DESCENDING';

const QUERIES: QueryShape[] = [
  {
    file: 'services/pointsExpiry.ts',
    lines: [
      ".where('pointsOldestMonth', '<=', month)",
      ".orderBy('pointsOldestMonth')",
      '.orderBy(FieldPath.documentId())',
    ],
    collection: 'users',
    range: 'pointsOldestMonth',
    orderBy: [
      ['pointsOldestMonth', ASC],
      ['__name__', ASC],
    ],
  },
  {
    file: 'data/users.ts',
    lines: ["const holders = await usersCollection().where('pushToken', '==', token).get();"],
    collection: 'users',
    equal: ['pushToken'],
  },
  {
    file: 'services/ledgerBooks.ts',
    lines: [
      'const ordered = field ? query.orderBy(field).orderBy(FieldPath.documentId()) : query.orderBy(FieldPath.documentId());',
    ],
    // pages(usersCollection()), pages(kiosksCollection()): by id only.
    collection: 'users',
    orderBy: [['__name__', ASC]],
  },
  // The audit: each user's entries, transactions and redemptions, and each kiosk's transactions, in id order.
  ...(
    [
      ['ledger', "entries: { docs: pages(ledgerCollection(), 'userId', onPage), ownerOf: byUser },"],
      ['transactions', "transactions: { docs: pages(transactionsCollection(), 'userId', onPage), ownerOf: byUser },"],
      ['redemptions', "redemptions: { docs: pages(redemptionsCollection(), 'userId', onPage), ownerOf: byUser },"],
    ] as const
  ).map(([collection, line]) => ({
    file: 'services/audit.ts',
    lines: [line],
    collection,
    orderBy: [
      ['userId', ASC],
      ['__name__', ASC],
    ] as [string, Direction][],
  })),
  {
    file: 'services/audit.ts',
    lines: [
      "transactions: { docs: pages(transactionsCollection(), 'kioskId', onPage), ownerOf: (t) => t.get('kioskId') },",
    ],
    collection: 'transactions',
    orderBy: [
      ['kioskId', ASC],
      ['__name__', ASC],
    ],
  },
  {
    file: 'services/ledgerBooks.ts',
    lines: [
      "for (const entry of (await tx.get(ledgerCollection().where('userId', '==', userId))).docs) addEntry(sums, entry);",
    ],
    collection: 'ledger',
    equal: ['userId'],
  },
  ...(['ledger', 'transactions', 'redemptions'] as const).map((collection) => ({
    file: 'services/audit.ts',
    // The audit's second look at one user, inside a read-only transaction: each of the user's collections.
    lines: ["const ofUser = (collection: CollectionReference) => tx.get(collection.where('userId', '==', userId));"],
    collection,
    equal: ['userId'],
  })),
  // pendingSince(): one query shape for each collection whose effects the sweep completes.
  ...(
    [
      ['transactions', 'createdAt'],
      ['redemptions', 'createdAt'],
      ['alerts', 'openedAt'],
      ['expiryReminders', 'createdAt'],
      ['webhookEvents', 'occurredAt'],
      ['voucherUses', 'usedAt'],
      ['holdDecisions', 'createdAt'],
      ['users', 'erasedAt'],
    ] as const
  ).map(([collection, timeField]): QueryShape => ({
    file: 'data/pendingEffects.ts',
    lines: [
      ".where(EFFECTS_PENDING, '==', true)",
      ".where(timeField, '<=', Timestamp.fromDate(cutoff))",
      '.orderBy(timeField)',
      '.orderBy(FieldPath.documentId());',
    ],
    collection,
    equal: ['effectsPending'],
    range: timeField,
    orderBy: [
      [timeField, ASC],
      ['__name__', ASC],
    ],
  })),
  {
    file: 'services/kioskFold.ts',
    lines: [
      ".where('kioskId', '==', kioskId)",
      ".where('createdAt', '>=', Timestamp.fromMillis(around - NEARBY_MS))",
      ".where('createdAt', '<=', Timestamp.fromMillis(around + NEARBY_MS))",
      ".orderBy('createdAt', 'desc')",
    ],
    collection: 'transactions',
    equal: ['kioskId'],
    range: 'createdAt',
    orderBy: [['createdAt', DESC]],
  },
  {
    file: 'services/kioskFold.ts',
    lines: [
      ".where('createdAt', '>=', Timestamp.fromMillis(now - lookbackMs))",
      ".where('createdAt', '<=', Timestamp.fromMillis(now - minAgeMs))",
    ],
    collection: 'transactions',
    range: 'createdAt',
  },
  {
    // The whole catalog: GET /admin/rewards and the CLI's `catalog`.
    file: 'data/rewards.ts',
    lines: ['const snapshot = await rewardsCollection().orderBy(FieldPath.documentId()).get();'],
    collection: 'rewards',
    orderBy: [['__name__', ASC]],
  },
  {
    file: 'cli/commands/demo.ts',
    lines: ["const keys = await kioskKeysCollection().where('kioskId', '==', kioskId).get();"],
    collection: 'kioskKeys',
    equal: ['kioskId'],
  },
  // GET /admin/kiosks/{kioskId}/keys and GET /admin/partners/{partnerId}/keys: newest first.
  ...(
    [
      ['kioskKeys', 'kioskId'],
      ['partnerKeys', 'partnerId'],
    ] as const
  ).map(([collection, holderField]): QueryShape => ({
    file: 'data/apiKeys.ts',
    lines: [
      ".where(holderField, '==', holderId)",
      ".orderBy('createdAt', 'desc')",
      ".orderBy(FieldPath.documentId(), 'desc')",
    ],
    collection,
    equal: [holderField],
    orderBy: [
      ['createdAt', DESC],
      ['__name__', DESC],
    ],
  })),
  {
    // GET /admin/partners: by id.
    file: 'data/partners.ts',
    lines: ['const snapshot = await partnersCollection().orderBy(FieldPath.documentId()).get();'],
    collection: 'partners',
    orderBy: [['__name__', ASC]],
  },
  {
    file: 'data/kiosks.ts',
    lines: ["const query = status ? kiosksCollection().where('status', '==', status) : kiosksCollection();"],
    collection: 'kiosks',
    equal: ['status'],
  },
  {
    file: 'data/kiosks.ts',
    lines: [".where('status', '==', 'available')", ".where('lastSeenAt', '<', Timestamp.fromDate(cutoff))"],
    collection: 'kiosks',
    equal: ['status'],
    range: 'lastSeenAt',
  },
  {
    file: 'data/rewards.ts',
    lines: [
      "const snapshot = await rewardsCollection().where('active', '==', true).orderBy('cost').orderBy('__name__').get();",
    ],
    collection: 'rewards',
    equal: ['active'],
    orderBy: [
      ['cost', ASC],
      ['__name__', ASC],
    ],
  },
  // GET /admin/alerts?state=open, then all alerts: the same line with or without the filter.
  ...[['resolvedAt'], []].map((equal): QueryShape => ({
    file: 'data/alerts.ts',
    lines: [
      "let query = state === 'open' ? alertsCollection().where('resolvedAt', '==', null) : alertsCollection();",
      "query = query.orderBy('openedAt', 'desc').orderBy(FieldPath.documentId(), 'desc');",
    ],
    collection: 'alerts',
    equal,
    orderBy: [
      ['openedAt', DESC],
      ['__name__', DESC],
    ],
  })),
  {
    file: 'data/alerts.ts',
    lines: [
      "const snapshot = await alertsCollection().where('kind', '==', kind).where('resolvedAt', '==', null).get();",
    ],
    collection: 'alerts',
    equal: ['kind', 'resolvedAt'],
  },
  // Newest first pages of data/ledger.ts, data/redemptions.ts, data/transactions.ts (a user's export), and of
  // data/notifications.ts (their own collection: no filter).
  ...[
    ['ledger', ['userId']],
    ['redemptions', ['userId']],
    ['transactions', ['userId']],
    ['notifications', []],
  ].map(([collection, equal]): QueryShape => ({
    file: 'data/userPages.ts',
    lines: [
      "const theirs = userId === undefined ? collection : collection.where('userId', '==', userId);",
      "let query = filtered.orderBy('createdAt', 'desc').orderBy('__name__', 'desc');",
    ],
    collection: collection as string,
    equal: equal as string[],
    orderBy: [
      ['createdAt', DESC],
      ['__name__', DESC],
    ],
  })),
  // The report of one kiosk, or of all.
  ...[['kioskId'], []].map((equal): QueryShape => ({
    file: 'data/kioskDays.ts',
    lines: [
      "let query = kioskDaysCollection().where('day', '>=', from).where('day', '<=', to);",
      "if (kioskId !== undefined) query = query.where('kioskId', '==', kioskId);",
    ],
    collection: 'kioskDays',
    equal,
    range: 'day',
  })),
  // Kiosks near a point, with or without a status.
  ...[['status'], []].map((equal): QueryShape => ({
    file: 'data/kiosksNearby.ts',
    lines: [
      "const kiosks = status ? kiosksCollection().where('status', '==', status) : kiosksCollection();",
      "kiosks.where('geohash', '>=', start).where('geohash', '<', end).get(),",
    ],
    collection: 'kiosks',
    equal,
    range: 'geohash',
  })),
  // Webhooks (contract §13): a webhook's deliveries, newest first, of one status or all
  // (data/webhookDeliveries.ts, paged by data/userPages.ts); webhooks by event type; all webhooks.
  ...[['webhookId'], ['webhookId', 'status']].map((equal): QueryShape => ({
    file: 'data/webhookDeliveries.ts',
    lines: [
      "const ofWebhook = collection.where('webhookId', '==', webhookId);",
      "const filtered = status === undefined ? ofWebhook : ofWebhook.where('status', '==', status);",
    ],
    collection: 'webhookDeliveries',
    equal,
    orderBy: [
      ['createdAt', DESC],
      ['__name__', DESC],
    ],
  })),
  {
    file: 'data/webhooks.ts',
    lines: ["const snapshot = await webhooksCollection().where('events', 'array-contains', type).get();"],
    collection: 'webhooks',
    equal: ['events'],
  },
  {
    file: 'data/webhooks.ts',
    lines: ["const snapshot = await webhooksCollection().orderBy('createdAt').get();"],
    collection: 'webhooks',
    orderBy: [['createdAt', ASC]],
  },
  // Claims (contract §18): how many of a kiosk's deposits are still unclaimed (the console's kiosk page).
  {
    file: 'data/claims.ts',
    lines: [".where('kioskId', '==', kioskId)", ".where('status', '==', 'unclaimed' satisfies TransactionStatus)"],
    collection: 'transactions',
    equal: ['kioskId', 'status'],
  },
  // Trust (contract §17): the user's previous deposit (the travel limit); the holds, open or all, newest first.
  {
    file: 'services/risk.ts',
    // Without the range (the latest deposit of a profile from before it was kept) the same index serves.
    lines: [
      "const mine = transactionsCollection().where('userId', '==', userId);",
      "const query = atOrBefore ? mine.where('occurredAt', '<=', Timestamp.fromDate(atOrBefore)) : mine;",
      "const snapshot = await query.orderBy('occurredAt', 'desc').limit(1).get();",
    ],
    collection: 'transactions',
    equal: ['userId'],
    range: 'occurredAt',
    orderBy: [['occurredAt', DESC]],
  },
  ...[['resolution'], []].map((equal): QueryShape => ({
    file: 'data/holds.ts',
    lines: ["open ? holdsCollection().where('resolution', '==', null) : holdsCollection(),"],
    collection: 'holds',
    equal,
    orderBy: [
      ['createdAt', DESC],
      ['__name__', DESC],
    ],
  })),
];

interface IndexField {
  fieldPath: string;
  order?: Direction;
}
interface CompositeIndex {
  collectionGroup: string;
  queryScope: string;
  fields: IndexField[];
}

interface FieldOverride {
  collectionGroup: string;
  fieldPath: string;
  ttl?: boolean;
  indexes: unknown[];
}

const srcDir = join(__dirname, '..', '..', 'src');
const { indexes, fieldOverrides } = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'firestore.indexes.json'), 'utf8'),
) as { indexes: CompositeIndex[]; fieldOverrides: FieldOverride[] };

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
const linesOf = (file: string) =>
  readFileSync(join(srcDir, file), 'utf8')
    .split('\n')
    .map((line) => line.trim());

/** A composite index as a query needs it: equality fields (in any order), then ordered fields ("field DIRECTION"). */
interface NeededIndex {
  equal: string[];
  ordered: string[];
}

/**
 * The composite index a query needs, or undefined where Firestore's automatic
 * single-field indexes serve it: equality fields first, then the range or order
 * fields in order. The id as the last order follows the index's last direction
 * implicitly and is left out. Equality alone on two fields could be served by
 * merging single-field indexes, but that is Firestore's choice to make at query
 * time: such a query gets its composite index too.
 */
function neededIndex(query: QueryShape): NeededIndex | undefined {
  const ordered: [string, Direction][] = [...(query.orderBy ?? [])];
  if (query.range && !ordered.some(([field]) => field === query.range)) ordered.unshift([query.range, ASC]);
  const last = ordered.at(-1);
  if (last?.[0] === '__name__' && (ordered.length === 1 || ordered.at(-2)![1] === last[1])) ordered.pop();
  const equal = (query.equal ?? []).filter((field) => !ordered.some(([orderedField]) => orderedField === field));
  if (equal.length + ordered.length < 2) return undefined;
  return { equal: [...equal].sort(), ordered: ordered.map(([field, direction]) => `${field} ${direction}`) };
}

/** Whether firestore.indexes.json deploys `needed` for `collection` (a trailing id in the index's last direction aside). */
function deployed(collection: string, needed: NeededIndex): boolean {
  return indexes.some((index) => {
    if (index.collectionGroup !== collection || index.queryScope !== 'COLLECTION') return false;
    const fields = [...index.fields];
    const last = fields.at(-1);
    if (last?.fieldPath === '__name__' && fields.at(-2)?.order === last.order) fields.pop();
    const prefix = needed.equal.length;
    if (fields.length !== prefix + needed.ordered.length) return false;
    const equal = fields.slice(0, prefix).map((field) => field.fieldPath);
    const ordered = fields.slice(prefix).map((field) => `${field.fieldPath} ${field.order}`);
    return equal.sort().join() === needed.equal.join() && ordered.join() === needed.ordered.join();
  });
}

describe('firestore.indexes.json has the index of every query in functions/src', () => {
  test.each(QUERIES.map((query) => [query.file, query.collection, query] as const))(
    '%s: the query of %s is written as listed',
    (file, _collection, query) => {
      const lines = linesOf(file);
      for (const line of query.lines) expect(lines).toContain(line);
    },
  );

  test('every line of src/ that filters or orders a query is listed', () => {
    const listed = new Set(QUERIES.flatMap((query) => query.lines.map((line) => `${query.file}: ${line}`)));
    const unlisted = sourceFiles(srcDir).flatMap((path) => {
      const file = relative(srcDir, path);
      return linesOf(file)
        .filter((line) => /\.(where|orderBy)\(|\bpages\(\w+Collection\(\), '/.test(line))
        .map((line) => `${file}: ${line}`)
        .filter((line) => !listed.has(line));
    });
    expect(unlisted).toEqual([]);
  });

  test.each(
    QUERIES.map((query) => [query.collection, JSON.stringify(neededIndex(query) ?? 'single-field'), query] as const),
  )('%s by %s: its index is deployed (or none is needed)', (_collection, _fields, query) => {
    const needed = neededIndex(query);
    if (needed) expect(deployed(query.collection, needed)).toBe(true);
    else expect(needed).toBeUndefined();
  });

  test('open alerts of one kind (the silent sweep) have their (kind, resolvedAt) index', () => {
    const byKind = QUERIES.find((query) => query.equal?.includes('kind'))!;
    expect(neededIndex(byKind)).toEqual({ equal: ['kind', 'resolvedAt'], ordered: [] });
    expect(deployed('alerts', neededIndex(byKind)!)).toBe(true);
  });
});

describe('firestore.indexes.json deletes what is kept only for a time (TTL policies)', () => {
  // Each collection's data/ module is named after it; the ones that write an `expireAt`.
  const expiring = sourceFiles(join(srcDir, 'data'))
    .filter((path) => /\bexpireAt: /.test(readFileSync(path, 'utf8')))
    .map((path) => basename(path, '.ts'))
    .sort();

  test('the collections with an expireAt are rate limits and the webhook records', () => {
    expect(expiring).toEqual(['rateLimits', 'webhookDeliveries', 'webhookEvents']);
  });

  test.each(expiring)('%s: a TTL policy on expireAt, a field not indexed', (collection) => {
    expect(fieldOverrides).toContainEqual({
      collectionGroup: collection,
      fieldPath: 'expireAt',
      ttl: true,
      indexes: [],
    });
  });
});
