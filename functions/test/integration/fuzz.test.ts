/**
 * Property-based fuzzing of every endpoint of the `api` function (contract §2, §3).
 *
 * The real handler (handleApiRequest) is hosted in-process behind an express app that
 * parses bodies the way the Cloud Functions runtime does, and real HTTP requests with
 * random paths, ids, headers, content types and bodies are sent to it. For every request:
 *
 *  - the status is never 5xx (except the documented upstream failures: the OTP mail
 *    server, deliberately unreachable here, and the push outbox's simulated
 *    "unavailable-" device tokens);
 *  - every non-2xx answer is JSON `{ error: "<non-empty>", ... }` without stack
 *    traces, file paths or library internals;
 *  - every 4xx leaves Firestore exactly as it was (data and update times of every
 *    document), except the contract's removal of a push token reported unregistered (410)
 *    and a valid kiosk key's record of its kiosk as seen (lastSeenAt, §7).
 *
 * Environment: FUZZ_RUNS scales the number of runs (default 1); FUZZ_SEED fixes
 * fast-check's seed; FUZZ_STATS=1 prints the statuses seen per property;
 * FUZZ_COLLECT=1 runs every request and lists each distinct failure instead of
 * stopping at the first and shrinking it.
 */
import fc from 'fast-check';
import { SIMULATED_TOKEN_PREFIXES, classifyFcmError } from '../../src/adapters/push';
import { utcDay } from '../../src/domain/rewards';
import { issueKey, revokeKey } from '../../src/data/kioskKeys';
import { upsertReward } from '../../src/data/rewards';
import { redeemReward } from '../../src/services/redemptions';
import { createWebhook } from '../../src/data/webhooks';
import { newWebhookSecret } from '../../src/domain/webhookEvents';
import { partnerKeys, upsertPartner } from '../../src/data/partners';
import { bucketDocumentId } from '../../src/data/rateLimits';
import { sha256Hex } from '../../src/domain/hash';
import { guessesOf } from '../../src/services/vouchers';
import { claimGuessesOf } from '../../src/services/claims';
import { allRoutes } from '../../src/http/routes';
import { emulatorsFromEnv } from '../harness/emulators';
import {
  anyValue,
  bodies,
  encodeBody,
  encodeSegment,
  focuses,
  headers,
  hostileId,
  hostileText,
  oddBodies,
  pathsOf,
  requestStrings,
  requestsFor,
  segments,
  stringsIn,
  weighted,
  type CredentialPool,
  type FuzzBody,
  type FuzzRequest,
  type Shape,
} from './fuzz-arbitraries';
import {
  HANDLER_CRASH_HEADER,
  RUNTIME_ERROR_HEADER,
  captureLogs,
  closeClient,
  describeChange,
  diffSnapshots,
  send,
  snapshotDb,
  startFuzzServer,
  type DbSnapshot,
  type DocChange,
  type FuzzServer,
  type RawResponse,
} from './fuzz-server';
import { resetEmulators, setBackgroundTriggers } from './helpers';
import { idTokenFor } from './requests';
import { kioskDayRow, seedKiosk, seedKioskDays, seedKioskWithKey, seedUser, uniqueId } from './seeds';
import { WEBHOOK_EVENT_TYPES } from '../../src/model/webhookEventTypes';

const routes = allRoutes();

// Params are read from process.env at call time; nothing else sets them in this process.
Object.assign(process.env, {
  PUSH_TRANSPORT: 'outbox',
  SMTP_HOST: '127.0.0.1',
  // Nothing listens on port 1: a valid OTP request fails fast with 502.
  SMTP_PORT: '1',
  SMTP_SECURE: 'false',
  SMTP_USER: '',
  SMTP_PASSWORD: 'x',
  MAIL_FROM: 'test <t@example.com>',
  OTP_VALIDITY_MINUTES: '10',
  OTP_PER_ADDRESS_LIMIT: '3',
  OTP_PER_ADDRESS_WINDOW_MINUTES: '10',
  OTP_PER_IP_LIMIT: '1000',
  OTP_PER_IP_WINDOW_MINUTES: '60',
  OTP_GLOBAL_LIMIT_PER_HOUR: '1000',
  NOTIFY_TOPICS: 'all_users,offers_updates',
  CORS_ORIGINS: '',
  KIOSK_ONLINE_MINUTES: '15',
  FILL_ALERT_PERCENT: '90',
});

const RUN_SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

// ---------------------------------------------------------------------------------
// Fixtures

interface Fixtures {
  /** available, key keyA; its status is fuzzed by the status endpoint. */
  kioskA: string;
  keyA: string;
  /** available, key keyT; only the transaction endpoint uses it, so it stays available. */
  kioskT: string;
  keyT: string;
  /** maintenance, key keyM: transactions get 409. */
  kioskM: string;
  keyM: string;
  /** no key of its own except `spareKeyId`, which the revoke endpoint may revoke. */
  kioskPlain: string;
  spareKeyId: string;
  /** a revoked key of kiosk A */
  revokedKey: string;
  revokedKeyId: string;
  /** profile without push token; userToken signs in as this user */
  user: string;
  userToken: string;
  /** profile with a working push token */
  userPush: string;
  /** profile whose push token the outbox reports unregistered (410 removes it) */
  userGone: string;
  /** signed-in account without a profile */
  stranger: string;
  strangerToken: string;
  adminToken: string;
  /** an active voucher of unlimited stock; `user` can afford it many times over */
  reward: string;
  /** one redemption of `reward` by `user`, for the cancel endpoint */
  redemption: string;
  // Webhooks (contract §13): one whose secret is rotated, one the delete endpoint may delete.
  webhook: string;
  spareWebhook: string;
  // Partners and vouchers (§12): `partner` checks with checkKey and uses with useKey (apart, so
  // that the guesses of one do not stop the other); otherPartner has a key the revoke endpoint
  // may revoke, and a reward whose voucher `partner` does not honour.
  partner: string;
  checkKey: string;
  useKey: string;
  revokedPartnerKey: string;
  revokedPartnerKeyId: string;
  otherPartner: string;
  sparePartnerKeyId: string;
  /** vouchers of `reward`: one only checked, one the use endpoint uses; and the code of `redemption` */
  voucher: string;
  usableVoucher: string;
  redemptionCode: string;
  /** a voucher of otherPartner's reward */
  otherVoucher: string;
  // A person's data (§15): a user with points whom only the erase endpoint erases.
  erasable: string;
  erasableToken: string;
}

let fx: Fixtures;
let server: FuzzServer;
let logs: ReturnType<typeof captureLogs>;
/** The database as it was after the last request (or the fixtures). */
let current: DbSnapshot;
let triggersDisabled = false;

beforeAll(async () => {
  logs = captureLogs();
  await resetEmulators();
  // With the functions emulator running (the full suite), stop background triggers so
  // that nothing but the fuzzed requests writes to Firestore; the hub flushes queued runs.
  if (emulatorsFromEnv().functions) {
    await setBackgroundTriggers(false);
    triggersDisabled = true;
  }

  const user = uniqueId('fuzz-user');
  const stranger = uniqueId('fuzz-stranger');
  const admin = uniqueId('fuzz-admin');
  const erasable = uniqueId('fuzz-erasable');
  const [userToken, strangerToken, adminToken, erasableToken] = await Promise.all([
    idTokenFor(user),
    idTokenFor(stranger),
    idTokenFor(admin, { admin: true }),
    idTokenFor(erasable),
  ]);

  const a = await seedKioskWithKey();
  const t = await seedKioskWithKey();
  const m = await seedKioskWithKey({ status: 'maintenance' });
  const kioskPlain = await seedKiosk({ openingHours: 'Mo-Fr 08:00-20:00; Sa 09:00-14:00', timezone: 'Asia/Tokyo' });
  const spare = await issueKey(kioskPlain, 'spare');
  const revoked = await issueKey(a.kioskId, 'revoked');
  await revokeKey(a.kioskId, revoked.keyId);
  await seedUser({ id: user, currentPoints: 1_000_000, totalPoints: 1_000_000 });
  const reward = uniqueId('fuzz-reward');
  await upsertReward({ id: reward, name: 'Fuzz coffee', cost: 10, kind: 'voucher', stock: null });
  const { redemption } = await redeemReward(user, reward, 'fuzz-seed');
  // Days with figures for the daily report to find.
  const daysAgo = (days: number) => utcDay(new Date(Date.now() - days * 86_400_000));
  await seedKioskDays([
    kioskDayRow(t.kioskId, daysAgo(0), 2),
    kioskDayRow(t.kioskId, daysAgo(3), 1),
    kioskDayRow(a.kioskId, daysAgo(3), 4),
  ]);
  const userPush = await seedUser({ pushToken: 'fuzz-device-1' });
  const userGone = await seedUser({ pushToken: 'unregistered-fuzz-1' });
  const webhookFields = { url: 'http://127.0.0.1:9/hooks', events: ['alert.opened' as const], description: '' };
  const webhook = await createWebhook(webhookFields, newWebhookSecret());
  const spareWebhook = await createWebhook(webhookFields, newWebhookSecret());
  const partner = uniqueId('fuzz-partner');
  const otherPartner = uniqueId('fuzz-other-partner');
  await upsertPartner(partner, 'Fuzz café');
  await upsertPartner(otherPartner, 'Fuzz cinema');
  const [checkKey, useKey, revokedPartnerKey, sparePartnerKey] = await Promise.all([
    partnerKeys.issueKey(partner, 'check'),
    partnerKeys.issueKey(partner, 'use'),
    partnerKeys.issueKey(partner, 'revoked'),
    partnerKeys.issueKey(otherPartner, 'spare'),
  ]);
  await partnerKeys.revokeKey(partner, revokedPartnerKey.keyId);
  const otherReward = uniqueId('fuzz-other-reward');
  await upsertReward({
    id: otherReward,
    name: 'Fuzz cinema ticket',
    cost: 10,
    kind: 'voucher',
    stock: null,
    partnerId: otherPartner,
  });
  const voucher = await redeemReward(user, reward, 'fuzz-voucher');
  const usableVoucher = await redeemReward(user, reward, 'fuzz-usable-voucher');
  const otherVoucher = await redeemReward(user, otherReward, 'fuzz-other-voucher');
  await seedUser({ id: erasable, currentPoints: 50, totalPoints: 50 });

  fx = {
    kioskA: a.kioskId,
    keyA: a.apiKey,
    kioskT: t.kioskId,
    keyT: t.apiKey,
    kioskM: m.kioskId,
    keyM: m.apiKey,
    kioskPlain,
    spareKeyId: spare.keyId,
    revokedKey: revoked.apiKey,
    revokedKeyId: revoked.keyId,
    user,
    userToken,
    userPush,
    userGone,
    stranger,
    strangerToken,
    adminToken,
    reward,
    redemption: redemption.id,
    webhook: webhook.id,
    spareWebhook: spareWebhook.id,
    partner,
    checkKey: checkKey.apiKey,
    useKey: useKey.apiKey,
    revokedPartnerKey: revokedPartnerKey.apiKey,
    revokedPartnerKeyId: revokedPartnerKey.keyId,
    otherPartner,
    sparePartnerKeyId: sparePartnerKey.keyId,
    voucher: voucher.redemption.code!,
    usableVoucher: usableVoucher.redemption.code!,
    redemptionCode: redemption.code!,
    otherVoucher: otherVoucher.redemption.code!,
    erasable,
    erasableToken,
  };
  server = await startFuzzServer();
  current = await snapshotDb();
}, 120_000);

afterAll(async () => {
  await inFlight;
  if (hungIn) {
    // A hung request can hold Firestore locks for minutes; later test files reset the
    // database first, so wait until that works again rather than fail them too.
    const deadline = Date.now() + 200_000;
    while (Date.now() < deadline) {
      try {
        await resetEmulators();
        break;
      } catch {
        // still locked
      }
    }
  }
  await server?.close();
  closeClient();
  logs?.restore();
  if (triggersDisabled) await setBackgroundTriggers(true);
}, 240_000);

/** The device token a /notify/user request pushes to: the given one, or the user's stored one. */
function recipientToken(request: FuzzRequest, before: DbSnapshot): string | undefined {
  const json = request.body?.json as { userId?: unknown; pushToken?: unknown } | undefined;
  if (typeof json?.pushToken === 'string') return json.pushToken;
  if (typeof json?.userId !== 'string') return undefined;
  const stored = before.get(`users/${json.userId}`)?.fields.pushToken;
  return stored === undefined ? undefined : (JSON.parse(stored) as string);
}

/** Device tokens the outbox answers the way FCM answers a token it does not accept (410, removed). */
const FORGOTTEN_PREFIXES = Object.entries(SIMULATED_TOKEN_PREFIXES)
  .filter(([, code]) => classifyFcmError({ code }, 'token').failure === 'unregistered')
  .map(([prefix]) => prefix);

/**
 * The contract's one write on a 4xx: a push token the provider does not accept is removed (410), from its user and
 * its holder document (`pushTokens/{sha256 of the token}`, data/pushTokens.ts).
 */
function isTokenRemoval(request: FuzzRequest, response: RawResponse, change: DocChange, before: DbSnapshot): boolean {
  if (response.status !== 410) return false;
  const token = recipientToken(request, before);
  if (change.kind === 'deleted') return token !== undefined && change.path === `pushTokens/${sha256Hex(token)}`;
  if (change.kind !== 'changed' || !/^users\/[^/]+$/.test(change.path)) return false;
  const was = change.before!.fields;
  const now = change.after!.fields;
  const forgotten = FORGOTTEN_PREFIXES.some((prefix) => was.pushToken?.startsWith(`"${prefix}`));
  if (!forgotten || now.pushToken !== undefined) return false;
  const names = new Set([...Object.keys(was), ...Object.keys(now)]);
  names.delete('pushToken');
  names.delete('pushTokenUpdatedAt');
  return [...names].every((name) => was[name] === now[name]);
}

/**
 * The write any request with a valid kiosk key makes, also one answered 4xx: the
 * kiosk's lastSeenAt (at most once a minute). Nothing else of the kiosk changes.
 */
function isLivenessRecord(request: FuzzRequest, change: DocChange): boolean {
  const keyOwner = new Map([
    [fx.keyA, fx.kioskA],
    [fx.keyT, fx.kioskT],
    [fx.keyM, fx.kioskM],
  ]).get(request.headers['x-api-key']);
  if (!keyOwner || change.kind !== 'changed' || change.path !== `kiosks/${keyOwner}`) return false;
  const before = change.before!.fields;
  const after = change.after!.fields;
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  names.delete('lastSeenAt');
  return after.lastSeenAt !== undefined && [...names].every((name) => before[name] === after[name]);
}

/** The write of a voucher route's 404 (§12): the unknown code counted as a guess of the partner whose key sent it. */
function isGuessCounted(request: FuzzRequest, response: RawResponse, change: DocChange): boolean {
  const apiKey = request.headers['x-api-key'];
  if (response.status !== 404 || apiKey === undefined) return false;
  const bucket = guessesOf({ partnerId: fx.partner, keyId: sha256Hex(apiKey) });
  return change.path === `rateLimits/${bucketDocumentId(bucket)}`;
}

// ---------------------------------------------------------------------------------
// Endpoints

interface RouteSpec {
  /** "METHOD /template" exactly as in src/http/routes. */
  route: string;
  runs: number;
  requests: () => fc.Arbitrary<FuzzRequest>;
  /** A documented 5xx for this request and answer (`before`: the database before the request). */
  allow5xx?: (request: FuzzRequest, response: RawResponse, body: any, before: DbSnapshot) => boolean;
  /** A documented write on a 4xx. */
  allowWrite?: (request: FuzzRequest, response: RawResponse, change: DocChange, before: DbSnapshot) => boolean;
  /** A 2xx that is documented as text of this Content-Type rather than JSON (a report as CSV). */
  textAnswer?: (request: FuzzRequest) => string | undefined;
}

const pool = (): CredentialPool => ({
  apiKeys: [fx.keyA, fx.keyT, fx.keyM, fx.revokedKey, fx.checkKey, fx.revokedPartnerKey],
  tokens: [fx.adminToken, fx.userToken, fx.strangerToken],
});

/** An admin's GET requests (among the pool's other credentials) to the paths `path` gives. */
const adminGets = (path: Shape['path']) => requestsFor(pool(), { method: 'GET', token: fx.adminToken, path });

/** Requests to one endpoint for each of `variants` (e.g. which kiosk with which key). */
function each<T>(variants: T[], shape: (variant: T) => Shape): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...variants).chain((variant) => requestsFor(pool(), shape(variant)));
}

/**
 * Who calls a route of a user, for whom: the user, an admin for them or for a user without
 * points, a profile-less account for itself, a stranger for the user.
 */
type Caller = 'self' | 'adminForUser' | 'admin' | 'noProfile' | 'stranger';

/** The user's id and the caller's ID token of `caller`. */
function idAndToken(caller: Caller): [userId: string, token: string] {
  const callers: Record<Caller, [string, string]> = {
    self: [fx.user, fx.userToken],
    adminForUser: [fx.user, fx.adminToken],
    admin: [fx.userPush, fx.adminToken],
    noProfile: [fx.stranger, fx.strangerToken],
    stranger: [fx.user, fx.strangerToken],
  };
  return callers[caller];
}

/** Requests to a route of one user, as each of `callers`. */
function asCallers(
  method: string,
  template: string,
  callers: Caller[],
  rest: Pick<Shape, 'body' | 'idempotency'> = {},
): fc.Arbitrary<FuzzRequest> {
  return each(callers.map(idAndToken), ([userId, token]) => ({
    method,
    path: pathsOf(template, { userId: [userId] }),
    token,
    ...rest,
  }));
}

/** Who sends to a kiosk route: the kiosk, and the key it sends. */
type Sender = [kioskId: string, apiKey: string];

/**
 * The senders of a kiosk route: `kioskId` with its own key, `weight` times as often as each
 * of the kiosk in maintenance with its key (409) and `elsewhere` with `kioskId`'s key (403).
 */
const senders = (kioskId: string, apiKey: string, weight: number, elsewhere: string): fc.Arbitrary<Sender> =>
  weighted<Sender>(
    [weight, fc.constant([kioskId, apiKey])],
    [1, fc.constant([fx.kioskM, fx.keyM])],
    [1, fc.constant([elsewhere, apiKey])],
  );

/**
 * A kiosk route ("POST /kiosk/..."): requests from `from` (called once the fixtures exist),
 * with what `rest` gives for the sending kiosk. A valid key records its kiosk as seen,
 * whatever becomes of the request.
 */
function kioskSpec(
  route: string,
  runs: number,
  from: () => fc.Arbitrary<Sender>,
  rest: (kioskId: string) => Pick<Shape, 'body' | 'idempotency'>,
): RouteSpec {
  const [method, template] = route.split(' ');
  const ids = (kioskId: string): Record<string, string[]> =>
    template.includes(':kioskId') ? { kioskId: [kioskId] } : {};
  return {
    route,
    runs,
    requests: () =>
      from().chain(([kioskId, apiKey]) =>
        requestsFor(pool(), { method, path: pathsOf(template, ids(kioskId)), apiKey, ...rest(kioskId) }),
      ),
    allowWrite: (request, _response, change) => isLivenessRecord(request, change),
  };
}

/** The holder's id in a key route's template ("/admin/kiosks/:kioskId/keys"): kioskId. */
const holderOf = (template: string): string => /:(\w+)\/keys/.exec(template)![1];

/**
 * An operator issuing an API key ("POST /admin/kiosks/:kioskId/keys") for each of `holders`
 * (called once the fixtures exist), with a label or without.
 */
function keyIssueSpec(route: string, runs: number, holders: () => string[]): RouteSpec {
  const [method, template] = route.split(' ');
  return {
    route,
    runs,
    requests: () =>
      requestsFor(pool(), {
        method,
        path: pathsOf(template, { [holderOf(template)]: holders() }),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record({ label: fc.option(text(200), { nil: undefined }) }, { requiredKeys: [] }),
            { label: hostileText(200) },
            fuzzed,
          ),
      }),
  };
}

/**
 * An operator revoking an API key ("DELETE /admin/kiosks/:kioskId/keys/:keyId"): of each of
 * `keys` (called once the fixtures exist), the holder's id and the key's.
 */
function keyRevokeSpec(route: string, runs: number, keys: () => [holderId: string, keyId: string][]): RouteSpec {
  const [method, template] = route.split(' ');
  return {
    route,
    runs,
    requests: () =>
      each(keys(), ([holderId, keyId]) => ({
        method,
        path: pathsOf(template, { [holderOf(template)]: [holderId], keyId: [keyId] }),
        token: fx.adminToken,
      })),
  };
}

const STATUSES = ['available', 'maintenance', 'offline'];

/** A number as a client writes it, within [min, max]; at the bounds and at the fixtures' kiosks (Berlin) often. */
const decimalIn = (min: number, max: number, often: number[]) =>
  weighted(
    [3, fc.double({ min, max, noNaN: true }).map(String)],
    [2, fc.constantFrom(...[min, max, ...often].map(String))],
  );

/**
 * The query of a search around a point (GET /kiosks?near=): valid (near the poles,
 * the antimeridian and the fixtures' kiosks too), or when fuzzed, with values out
 * of bounds, in odd notations, or hostile text, and parameters left out.
 */
function nearbyQueries(fuzzed: boolean): fc.Arbitrary<string> {
  const junk = weighted(
    [
      2,
      fc.constantFrom(
        '',
        ' 1',
        '1 ',
        '0x10',
        'NaN',
        'Infinity',
        '-Infinity',
        '1e999',
        '1e-999',
        '+',
        '.',
        '1,2',
        '5km',
      ),
    ],
    [
      1,
      fc.constantFrom('-0', '.5', '5.', '+1', '1e2', '00090', '90.0000001', '-180.0000001', '50.0001', '0.0999', '101'),
    ],
    [1, fc.double({ min: -400, max: 400, noNaN: true }).map(String)],
    [1, hostileText(20)],
  );
  const value = (valid: fc.Arbitrary<string>) => (fuzzed ? weighted([1, valid], [2, junk]) : valid);
  const latitude = value(decimalIn(-90, 90, [52.52, 89.9, -89.9, 0]));
  const longitude = value(decimalIn(-180, 180, [13.405, 179.9, -179.9, 0]));
  const radiusKm = value(decimalIn(0.1, 50, [5, 1]));
  const limit = value(fc.integer({ min: 1, max: 100 }).map(String));
  return fc
    .record(
      {
        near: fc.tuple(latitude, longitude).map(([lat, lng]) => `${lat},${lng}`),
        radiusKm,
        limit,
        status: fuzzed
          ? weighted([3, fc.constantFrom(...STATUSES)], [1, hostileText(20)])
          : fc.constantFrom(...STATUSES),
      },
      { requiredKeys: fuzzed ? [] : ['near'] },
    )
    .map((params) =>
      Object.entries(params)
        .map(([name, text]) => `${name}=${encodeSegment(text)}`)
        .join('&'),
    );
}
/** Mostly small, so that users stay under the daily points cap and awards keep succeeding. */
const counts = weighted(
  [8, fc.integer({ min: 0, max: 5 })],
  [1, fc.integer({ min: 0, max: 1000 })],
  [1, fc.constantFrom(0, 1000)],
);
const hostileCount = fc.constantFrom<unknown>(-1, 1001, 1.5, '1', 1e308, -0, 2 ** 53, null, true, []);
const HOUR_MS = 3_600_000;
/** Within the offline window (7 days back to 5 minutes ahead), or absent. */
const occurredAt = fc.option(
  fc.integer({ min: -7 * 24 + 1, max: 0 }).map((hours) => new Date(Date.now() + hours * HOUR_MS).toISOString()),
  { nil: undefined },
);
const hostileOccurredAt = fc.constantFrom<unknown>(
  '2026-11-23T10:00:00',
  '2016-12-31T23:59:60Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T10:00:00Z',
  'now',
  '',
  0,
  Date.now(),
);
/** A deposit at `kioskId` of a user who exists, mostly. */
const deposit = (kioskId: string) =>
  fc.record(
    {
      kioskId: fc.constant(kioskId),
      userId: weighted(
        [6, fc.constantFrom(fx.user, fx.userPush, fx.userGone)],
        [1, fc.constantFrom(fx.stranger, 'ghost-user')],
      ),
      plasticCount: counts,
      metalCount: counts,
      occurredAt,
    },
    { requiredKeys: ['kioskId', 'userId', 'plasticCount', 'metalCount'] },
  );
const hostileDeposit = {
  kioskId: hostileId,
  userId: hostileId,
  plasticCount: hostileCount,
  metalCount: hostileCount,
  occurredAt: weighted([2, hostileOccurredAt], [1, hostileText(80)]),
};
/** Mostly under FILL_ALERT_PERCENT, sometimes over it: bin-full alerts open and resolve. */
const fillPercents = weighted<number | null>(
  [3, fc.integer({ min: 0, max: 100 })],
  [1, fc.constantFrom(null, 0, 90, 100)],
);
const hostilePercent = fc.constantFrom<unknown>(-1, 101, 50.5, '50', 1e308, true, [], {});
const deviceText = weighted(
  [3, fc.string({ unit: fc.constantFrom(...'ABCEJM-_.0123456789 '.split('')), minLength: 1, maxLength: 8 })],
  [1, fc.constantFrom(' ', '~'.repeat(64), 'E-42')],
);
const text = (maxLength: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 60) });
const DATA_KEYS = [
  'from',
  'google.x',
  'gcm.n',
  'collapse_key',
  'message_type',
  'notification',
  '__x__',
  '__name__',
  '___',
  'a.b',
  '`',
  '\u{1F600}',
  '\ud800',
  'x'.repeat(100),
  'x'.repeat(101),
  'constructor',
  'toString',
];
const dataPayloads = fc.option(
  fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }),
  { nil: undefined, freq: 2 },
);
const hostileData = weighted<unknown>(
  [
    3,
    fc.dictionary(
      weighted([1, fc.string({ minLength: 1, maxLength: 12 })], [2, fc.constantFrom(...DATA_KEYS)]),
      weighted([2, fc.string({ maxLength: 20 })], [1, hostileText(1000)]),
      { minKeys: 1, maxKeys: 4 },
    ),
  ],
  [1, fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { minKeys: 51, maxKeys: 55 })],
  [1, anyValue],
);
const notification = {
  title: hostileText(200),
  body: hostileText(2000),
  data: hostileData,
};

const specs: RouteSpec[] = [
  {
    route: 'GET /',
    runs: 40,
    requests: () => requestsFor(pool(), { method: 'GET', path: pathsOf('/') }),
  },
  {
    route: 'GET /openapi.json',
    runs: 20,
    requests: () => requestsFor(pool(), { method: 'GET', path: pathsOf('/openapi.json') }),
  },
  kioskSpec(
    'POST /kiosk/transaction',
    200,
    () => senders(fx.kioskT, fx.keyT, 6, fx.kioskA),
    (kioskId) => ({ idempotency: true, body: (fuzzed) => bodies(deposit(kioskId), hostileDeposit, fuzzed) }),
  ),
  kioskSpec(
    'POST /kiosk/transactions/batch',
    120,
    () => senders(fx.kioskT, fx.keyT, 2, fx.kioskA),
    (kioskId) => {
      const item = (fuzzed: boolean) =>
        bodies(
          deposit(kioskId).chain((body) =>
            fc.string({ minLength: 1, maxLength: 12 }).map((idempotencyKey) => ({ ...body, idempotencyKey })),
          ),
          { ...hostileDeposit, idempotencyKey: weighted([2, hostileText(300)], [1, anyValue]) },
          fuzzed,
        ).map((body) => (body && 'json' in body ? body.json : body));
      return {
        body: (fuzzed) =>
          bodies(
            fc.array(item(false), { minLength: 1, maxLength: 5 }).map((transactions) => ({ transactions })),
            {
              transactions: weighted(
                [4, fc.array(item(true), { minLength: 1, maxLength: 5 })],
                [1, fc.constantFrom<unknown>([], 'all', {}, null, [null], [[]], Array(101).fill({}))],
              ),
            },
            fuzzed,
          ),
      };
    },
  ),
  kioskSpec(
    'POST /kiosk/:kioskId/status',
    120,
    () => senders(fx.kioskA, fx.keyA, 2, fx.kioskPlain),
    () => ({
      body: (fuzzed) =>
        bodies(
          fc.record(
            {
              status: fc.constantFrom(...STATUSES),
              fillLevel: fc.record(
                { plastic: fillPercents, metal: fillPercents },
                { requiredKeys: [], noNullPrototype: true },
              ),
              firmwareVersion: fc.option(deviceText, { nil: null }),
              errorCode: fc.option(deviceText, { nil: null }),
            },
            { requiredKeys: ['status'] },
          ),
          {
            status: fc.constantFrom('AVAILABLE', 'available ', 'closed', '', 'toString', '__proto__'),
            fillLevel: weighted<unknown>(
              [2, fc.record({ plastic: hostilePercent, metal: hostilePercent }, { requiredKeys: [] })],
              [1, fc.constantFrom<unknown>({ glass: 10 }, [90], 90, 'full', { plastic: 10, metal: 10, x: 1 })],
            ),
            firmwareVersion: weighted([2, hostileText(64)], [1, fc.constantFrom('v2\n', 'ü', 'x'.repeat(65))]),
            errorCode: weighted([2, hostileText(64)], [1, fc.constantFrom('E\t1', '€', '')]),
          },
          fuzzed,
        ),
    }),
  ),
  {
    route: 'GET /kiosk/:kioskId',
    runs: 100,
    requests: () =>
      requestsFor(pool(), {
        method: 'GET',
        path: pathsOf('/kiosk/:kioskId', { kioskId: [fx.kioskA, fx.kioskT, fx.kioskM, fx.kioskPlain, 'fz-kiosk-1'] }),
      }),
  },
  {
    route: 'GET /kiosks',
    runs: 100,
    requests: () =>
      requestsFor(pool(), {
        method: 'GET',
        path: (fuzzed) =>
          fuzzed
            ? weighted(
                [2, hostileText(20).map((status) => `/kiosks?status=${encodeSegment(status)}`)],
                [3, nearbyQueries(true).map((query) => `/kiosks?${query}`)],
                [
                  1,
                  fc.constantFrom(
                    '/kiosks?status=available&status=offline',
                    '/kiosks?status',
                    '/kiosks?status=',
                    '/kiosks?status=%ZZ',
                    '/kiosks?status[a]=b',
                    '/kiosks?limit=1',
                    '/kiosks?radiusKm=5&status=available',
                    '/kiosks?near=52.52,13.4&near=52.52,13.4',
                    '/kiosks?near[]=52.52&near[]=13.4',
                    '/kiosks?near',
                    '/kiosks?near=52.52%2C13.4',
                    '/kiosks?near=52.52,13.4,',
                    '/kiosks?near=%2C',
                    '/kiosks?near=52.52,13.4&radiusKm=%ZZ',
                    '/kiosks/',
                    '/kiosks?',
                  ),
                ],
              )
            : weighted(
                [1, fc.constant('/kiosks')],
                [2, fc.constantFrom(...STATUSES).map((status) => `/kiosks?status=${status}`)],
                [3, nearbyQueries(false).map((query) => `/kiosks?${query}`)],
              ),
      }),
  },
  {
    route: 'GET /user/:userId',
    runs: 100,
    requests: () => asCallers('GET', '/user/:userId', ['self', 'self', 'admin', 'noProfile', 'stranger']),
  },
  userPageSpec('history'),
  userPageSpec('redemptions'),
  {
    route: 'PUT /user/:userId/push-token',
    runs: 100,
    requests: () =>
      asCallers('PUT', '/user/:userId/push-token', ['self', 'self', 'admin', 'noProfile'], {
        body: (fuzzed) =>
          bodies(
            fc.record({
              token: weighted(
                [4, fc.constantFrom('fuzz-device-1', 'fuzz-device-2', 'fuzz-device-3')],
                [1, fc.constantFrom('unregistered-fuzz-1', 'unregistered-fuzz-2', 'invalid-fuzz', 'unavailable-fuzz')],
                [2, fc.string({ minLength: 1, maxLength: 200 })],
              ),
            }),
            { token: weighted([2, hostileText(4096)], [1, fc.string({ minLength: 1000, maxLength: 4096 })]) },
            fuzzed,
          ),
      }),
  },
  {
    route: 'DELETE /user/:userId/push-token',
    runs: 60,
    requests: () => asCallers('DELETE', '/user/:userId/push-token', ['self', 'admin', 'noProfile']),
  },
  {
    route: 'POST /notify/topic',
    runs: 120,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/notify/topic'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                topic: fc.constantFrom('all_users', 'offers_updates'),
                title: text(200),
                body: text(2000),
                data: dataPayloads,
              },
              { requiredKeys: ['topic', 'title', 'body'] },
            ),
            {
              topic: weighted(
                [1, hostileText(900)],
                [1, fc.constantFrom('ALL_USERS', 'all_users ', '/topics/all_users')],
              ),
              ...notification,
            },
            fuzzed,
          ),
      }),
  },
  {
    route: 'POST /notify/user',
    runs: 150,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/notify/user'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc
              .tuple(
                weighted<Record<string, unknown>>(
                  [
                    4,
                    fc
                      .constantFrom(fx.userPush, fx.userPush, fx.user, fx.userGone, 'ghost-user')
                      .map((userId) => ({ userId })),
                  ],
                  [
                    3,
                    fc
                      .constantFrom(
                        'fuzz-device-9',
                        'unregistered-fuzz-2',
                        'invalid-fuzz',
                        'unavailable-fuzz',
                        'fuzz-device-1',
                      )
                      .map((pushToken) => ({ pushToken })),
                  ],
                  [1, fc.constant({ userId: fx.userPush, pushToken: 'fuzz-device-1' })],
                  [1, fc.constant({})],
                  [1, fc.constant({ userId: null, pushToken: 'fuzz-device-9' })],
                ),
                fc.record(
                  { title: text(200), body: text(2000), data: dataPayloads },
                  { requiredKeys: ['title', 'body'] },
                ),
              )
              .map(([recipient, content]) => ({ ...recipient, ...content })),
            {
              userId: hostileId,
              pushToken: weighted(
                [2, hostileText(4096)],
                [1, fc.string({ minLength: 1000, maxLength: 4096 }).map((token) => `unregistered-${token}`)],
              ),
              ...notification,
            },
            fuzzed,
          ),
      }),
    // The outbox answers device tokens starting "unavailable-" the way an unreachable FCM would.
    allow5xx: (request, response, body, before) =>
      response.status === 502 &&
      body?.code === 'push-provider-unavailable' &&
      recipientToken(request, before)?.startsWith('unavailable-') === true,
    allowWrite: isTokenRemoval,
  },
  {
    route: 'POST /send-otp-email',
    runs: 80,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/send-otp-email'),
        body: (fuzzed) =>
          bodies(
            fc.record({
              email: weighted(
                [5, fc.emailAddress()],
                [
                  1,
                  fc.constantFrom(
                    'a@b.co',
                    'A@EXAMPLE.COM',
                    'user+tag@example.com',
                    '"quoted"@example.com',
                    'a@[127.0.0.1]',
                  ),
                ],
              ),
              otp: fc.stringMatching(/^[0-9]{4,10}$/),
            }),
            {
              email: weighted(
                [
                  2,
                  fc.constantFrom(
                    'x@localhost',
                    '\u00fc@ex\u00e4mple.de',
                    ' a@b.co ',
                    'a@b',
                    '@b.co',
                    'a@@b.co',
                    `${'a'.repeat(250)}@b.co`,
                  ),
                ],
                [1, hostileText(254)],
              ),
              otp: weighted(
                [
                  2,
                  fc.constantFrom(
                    '123',
                    '12345678901',
                    '\u0661\u0662\u0663\u0664',
                    '1234\n',
                    ' 1234',
                    '12a4',
                    '\uff11\uff12\uff13\uff14',
                  ),
                ],
                [1, hostileText(10)],
              ),
            },
            fuzzed,
          ),
      }),
    // The mail server is deliberately unreachable (SMTP_PORT=1).
    allow5xx: (_request, response, body) => response.status === 502 && body?.code === 'mail-delivery-failed',
  },
  {
    route: 'POST /admin/kiosks',
    runs: 150,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/kiosks'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                id: weighted(
                  [4, fc.constantFrom('fz-kiosk-1', 'fz-kiosk-2', 'fz-kiosk-3')],
                  [1, fc.constantFrom(fx.kioskA, fx.kioskPlain)],
                ),
                name: text(200),
                address: text(500),
                location: fc.record({
                  latitude: weighted(
                    [5, fc.double({ min: -90, max: 90, noNaN: true })],
                    [1, fc.constantFrom(90, -90, 0, 5e-324)],
                  ),
                  longitude: weighted(
                    [5, fc.double({ min: -180, max: 180, noNaN: true })],
                    [1, fc.constantFrom(180, -180, 0, 5e-324)],
                  ),
                }),
                openingHours: fc.constantFrom<string | null>(
                  '24/7',
                  'Mo-Fr 08:00-20:00; Sa 09:00-14:00',
                  'sunrise-sunset',
                  '(sunrise+01:00)-(sunset-01:00)',
                  'dusk-dawn',
                  'sunset-sunrise',
                  'Mo 10:00-26:00',
                  'week 1-53/2 Mo 08:00-12:00',
                  'easter +1 day',
                  'Su[-1] 10:00-12:00',
                  '2030 Jan',
                  'closed',
                  'unknown "ask"',
                  '10:00+',
                  null,
                ),
                timezone: fc.constantFrom<string | null>(
                  'UTC',
                  'Europe/Berlin',
                  'Asia/Kolkata',
                  'America/St_Johns',
                  'Pacific/Chatham',
                  'Etc/GMT+12',
                  'Etc/GMT-14',
                  'Antarctica/Troll',
                  'EST5EDT',
                  null,
                ),
                status: fc.constantFrom<string | null>(...STATUSES, null),
              },
              { requiredKeys: ['id', 'name', 'address', 'location'] },
            ),
            {
              id: weighted([2, hostileId], [1, fc.constant(fx.kioskA)]),
              name: hostileText(200),
              address: hostileText(500),
              location: weighted<unknown>(
                [
                  3,
                  fc.record({
                    latitude: fc.constantFrom<unknown>(90.0000001, -91, 1e308, '1', null),
                    longitude: fc.constantFrom<unknown>(180.0000001, -181, -1e308, '1', null),
                  }),
                ],
                [
                  1,
                  fc.constantFrom<unknown>(
                    {},
                    { latitude: 1 },
                    { latitude: 1, longitude: 2, altitude: 3 },
                    [1, 2],
                    'x',
                  ),
                ],
              ),
              openingHours: weighted<unknown>(
                [2, fc.constantFrom('PH off', 'SH off', 'Feb 30', 'Mo-', '25:00-26:00', '', 'x'.repeat(1001))],
                [
                  2,
                  fc.string({
                    unit: fc.constantFrom(...'MoTuFrSaSu 0123456789:-;,+()[]/PHSH"offsunrisesetweek'.split('')),
                    minLength: 1,
                    maxLength: 30,
                  }),
                ],
                [1, hostileText(1000)],
              ),
              timezone: weighted<unknown>(
                [2, fc.constantFrom('+05:30', '-00:00', 'utc', 'Mars/Olympus', 'Europe/Berlin ', '', 'x'.repeat(101))],
                [1, hostileText(100)],
              ),
              status: fc.constantFrom<unknown>('AVAILABLE', 'closed', '', 0),
            },
            fuzzed,
          ),
      }),
  },
  keyIssueSpec('POST /admin/kiosks/:kioskId/keys', 60, () => [fx.kioskA, fx.kioskPlain, fx.kioskM]),
  {
    route: 'GET /admin/reports/kiosk-days',
    runs: 100,
    requests: () => adminGets((fuzzed) => reportQueries(fuzzed).map((query) => `/admin/reports/kiosk-days${query}`)),
    textAnswer: (request) => (/[?&]format=csv(&|$)/.test(request.path) ? 'text/csv' : undefined),
  },
  keyRevokeSpec('DELETE /admin/kiosks/:kioskId/keys/:keyId', 60, () => [
    [fx.kioskPlain, fx.spareKeyId],
    [fx.kioskA, fx.revokedKeyId],
    [fx.kioskA, fx.spareKeyId],
  ]),
  {
    route: 'GET /admin/kiosks',
    runs: 40,
    requests: () => adminGets(pathsOf('/admin/kiosks')),
  },
  {
    route: 'GET /admin/kiosks/:kioskId/keys',
    runs: 40,
    requests: () =>
      adminGets(pathsOf('/admin/kiosks/:kioskId/keys', { kioskId: [fx.kioskA, fx.kioskPlain, 'fz-kiosk-1'] })),
  },
  {
    route: 'GET /admin/rewards',
    runs: 40,
    requests: () => adminGets(pathsOf('/admin/rewards')),
  },
  {
    route: 'GET /admin/users',
    runs: 60,
    requests: () =>
      adminGets((fuzzed) =>
        fuzzed
          ? weighted(
              [2, hostileText(300).map((email) => `/admin/users?email=${encodeSegment(email)}`)],
              [1, fc.constantFrom('/admin/users', '/admin/users?email=', '/admin/users?email=a@b.c&email=a@b.c')],
            )
          : fc
              .constantFrom('nobody@kiosk-rewards.test', 'FUZZ@EXAMPLE.COM', 'a.b+c@example.org')
              .map((email) => `/admin/users?email=${encodeURIComponent(email)}`),
      ),
  },
  {
    route: 'GET /admin/alerts',
    runs: 80,
    requests: () =>
      adminGets((fuzzed) =>
        fuzzed
          ? weighted(
              [
                2,
                fc
                  .tuple(fc.constantFrom('state', 'limit', 'cursor'), hostileText(40))
                  .map(([name, value]) => `/admin/alerts?${name}=${encodeSegment(value)}`),
              ],
              [
                1,
                fc.constantFrom(
                  '/admin/alerts?limit=0',
                  '/admin/alerts?limit=101',
                  '/admin/alerts?limit=1.5',
                  '/admin/alerts?limit=-1',
                  '/admin/alerts?state=open&state=all',
                  '/admin/alerts?cursor=MTIzLjQ1Ni5fX3hfXw',
                  '/admin/alerts?cursor=LTEuMC54',
                  '/admin/alerts?cursor=OTk5OTk5OTk5OTk5LjAueA',
                  '/admin/alerts?order=asc',
                  '/admin/alerts?state',
                ),
              ],
            )
          : fc
              .record(
                { state: fc.constantFrom('open', 'all'), limit: fc.integer({ min: 1, max: 100 }) },
                { requiredKeys: [] },
              )
              .map((query) => `/admin/alerts?${new URLSearchParams(query as Record<string, string>)}`),
      ),
  },
  {
    route: 'POST /admin/users/:userId/adjustments',
    runs: 120,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        // fx.stranger has no profile (404); the others gain and lose points, at times past 0 (409).
        path: pathsOf('/admin/users/:userId/adjustments', { userId: [fx.user, fx.userPush, fx.stranger] }),
        token: fx.adminToken,
        idempotency: true,
        body: (fuzzed) =>
          bodies(
            fc.record({
              points: weighted(
                [4, fc.integer({ min: -50, max: 50 }).filter((points) => points !== 0)],
                [1, fc.integer({ min: -100_000, max: 100_000 }).filter((points) => points !== 0)],
                [1, fc.constantFrom(100_000, -100_000, 1, -1)],
              ),
              reason: text(200),
            }),
            {
              points: fc.constantFrom<unknown>(0, -0, 100_001, -100_001, 1.5, '5', 1e308, 2 ** 53, null, true, []),
              reason: weighted([2, hostileText(200)], [1, fc.constantFrom(' ', '\t\n', 'x'.repeat(201))]),
            },
            fuzzed,
          ),
      }),
  },
  {
    route: 'GET /rewards',
    runs: 20,
    requests: () => requestsFor(pool(), { method: 'GET', path: pathsOf('/rewards') }),
  },
  {
    route: 'POST /admin/rewards',
    runs: 100,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/rewards'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                id: fc.constantFrom('fz-reward-1', 'fz-reward-2', 'fz-reward-3'),
                name: text(200),
                description: fc.option(text(2000), { nil: null }),
                cost: weighted([4, fc.integer({ min: 1, max: 1_000_000 })], [1, fc.constantFrom(1, 1_000_000)]),
                kind: fc.constantFrom('voucher', 'donation'),
                stock: fc.option(fc.integer({ min: 0, max: 1_000_000_000 }), { nil: null }),
                active: fc.option(fc.boolean(), { nil: null }),
              },
              { requiredKeys: ['id', 'name', 'cost', 'kind'] },
            ),
            {
              id: hostileId,
              name: hostileText(200),
              description: hostileText(2000),
              cost: fc.constantFrom<unknown>(0, -1, 1_000_001, 2.5, '500', null, 1e308),
              kind: fc.constantFrom<unknown>('Voucher', 'gift', '', null, 1),
              stock: fc.constantFrom<unknown>(-1, 0.5, '3', 1_000_000_001, 'unlimited'),
              active: fc.constantFrom<unknown>('true', 0, 1, 'yes'),
            },
            fuzzed,
          ),
      }),
  },
  {
    route: 'POST /user/:userId/redemptions',
    runs: 120,
    requests: () =>
      asCallers('POST', '/user/:userId/redemptions', ['self', 'adminForUser', 'admin', 'noProfile', 'stranger'], {
        idempotency: true,
        body: (fuzzed) =>
          bodies(
            fc.record({
              rewardId: weighted([4, fc.constant(fx.reward)], [1, fc.constantFrom('fz-reward-1', 'ghost')]),
            }),
            { rewardId: hostileId },
            fuzzed,
          ),
      }),
  },
  {
    route: 'POST /admin/redemptions/:redemptionId/cancel',
    runs: 60,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/redemptions/:redemptionId/cancel', {
          redemptionId: [fx.redemption, 'no-such-redemption'],
        }),
        token: fx.adminToken,
        body: (fuzzed) => bodies(fc.record({ reason: text(200) }), { reason: hostileText(200) }, fuzzed),
      }),
  },
  // Webhooks (contract §13). No delivery is retried here: that would queue a task.
  {
    route: 'POST /admin/webhooks',
    runs: 80,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/webhooks'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                url: fc.constantFrom(
                  'http://127.0.0.1:9/hooks',
                  'https://hooks.example.com/in',
                  'https://10.0.0.1/',
                  'https://169.254.169.254/',
                  'https://[fd00:ec2::254]/',
                  'http://hooks.example.com/',
                ),
                events: fc.uniqueArray(fc.constantFrom(...WEBHOOK_EVENT_TYPES), { minLength: 1 }),
                description: fc.option(text(500), { nil: undefined }),
              },
              { requiredKeys: ['url', 'events'] },
            ),
            {
              url: weighted(
                [2, hostileText(2100)],
                [1, fc.constantFrom('https://', '//x', 'https://a b/', 'x'.repeat(2049))],
              ),
              events: fc.constantFrom<unknown>([], ['nope'], 'alert.opened', [null], null),
              description: hostileText(600),
            },
            fuzzed,
          ),
      }),
  },
  {
    route: 'GET /admin/webhooks',
    runs: 30,
    requests: () => adminGets(pathsOf('/admin/webhooks')),
  },
  {
    route: 'DELETE /admin/webhooks/:webhookId',
    runs: 40,
    requests: () =>
      requestsFor(pool(), {
        method: 'DELETE',
        path: pathsOf('/admin/webhooks/:webhookId', { webhookId: [fx.spareWebhook, 'no-such-webhook'] }),
        token: fx.adminToken,
      }),
  },
  {
    route: 'POST /admin/webhooks/:webhookId/rotate-secret',
    runs: 40,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/webhooks/:webhookId/rotate-secret', { webhookId: [fx.webhook, 'no-such-webhook'] }),
        token: fx.adminToken,
      }),
  },
  {
    route: 'GET /admin/webhooks/:webhookId/deliveries',
    runs: 80,
    requests: () =>
      each([fx.webhook, 'no-such-webhook'], (webhookId) => ({
        method: 'GET',
        path: (fuzzed) =>
          weighted(
            [3, pageQueries(fuzzed)],
            [
              1,
              (fuzzed ? hostileText(40) : fc.constantFrom('pending', 'succeeded', 'failed')).map(
                (status) => `?status=${encodeSegment(status)}`,
              ),
            ],
          ).map((query) => `/admin/webhooks/${encodeSegment(webhookId)}/deliveries${query}`),
        token: fx.adminToken,
      })),
  },
  {
    route: 'POST /admin/webhooks/:webhookId/deliveries/:deliveryId/retry',
    runs: 40,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/webhooks/:webhookId/deliveries/:deliveryId/retry', {
          webhookId: [fx.webhook, 'no-such-webhook'],
          deliveryId: ['no-such-delivery'],
        }),
        token: fx.adminToken,
      }),
  },
  // Partners and vouchers (§12).
  {
    route: 'POST /admin/partners',
    runs: 60,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/partners'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record({
              id: weighted([4, fc.constantFrom('fz-partner-1', 'fz-partner-2')], [1, fc.constant(fx.partner)]),
              name: text(200),
            }),
            { id: hostileId, name: hostileText(200) },
            fuzzed,
          ),
      }),
  },
  {
    route: 'GET /admin/partners',
    runs: 20,
    requests: () => adminGets(pathsOf('/admin/partners')),
  },
  keyIssueSpec('POST /admin/partners/:partnerId/keys', 40, () => [fx.partner, fx.otherPartner, 'fz-partner-1']),
  {
    route: 'GET /admin/partners/:partnerId/keys',
    runs: 30,
    requests: () =>
      adminGets(pathsOf('/admin/partners/:partnerId/keys', { partnerId: [fx.partner, 'no-such-partner'] })),
  },
  keyRevokeSpec('DELETE /admin/partners/:partnerId/keys/:keyId', 40, () => [
    [fx.otherPartner, fx.sparePartnerKeyId],
    [fx.partner, fx.revokedPartnerKeyId],
    [fx.partner, fx.sparePartnerKeyId],
    // A kiosk's key is no partner's.
    [fx.partner, fx.spareKeyId],
  ]),
  {
    route: 'GET /partner/vouchers/:code',
    runs: 40,
    requests: () =>
      requestsFor(pool(), {
        method: 'GET',
        path: pathsOf('/partner/vouchers/:code', {
          code: [...writtenCodes(fx.voucher), ...writtenCodes(fx.usableVoucher), ...otherCodes()],
        }),
        apiKey: fx.checkKey,
      }),
    allowWrite: isGuessCounted,
  },
  {
    route: 'POST /partner/vouchers/:code/use',
    runs: 40,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/partner/vouchers/:code/use', { code: [...writtenCodes(fx.usableVoucher), ...otherCodes()] }),
        apiKey: fx.useKey,
        idempotency: true,
      }),
    allowWrite: isGuessCounted,
  },
  // A person's data (§15).
  {
    route: 'GET /user/:userId/export',
    runs: 40,
    requests: () =>
      asCallers('GET', '/user/:userId/export', ['self', 'adminForUser', 'admin', 'noProfile', 'stranger']),
  },
  {
    route: 'DELETE /user/:userId',
    runs: 30,
    // Only the user kept for it is erased (by themselves or an admin): the other specs' users stay.
    requests: () =>
      each(
        [
          [fx.erasable, fx.erasableToken],
          [fx.erasable, fx.adminToken],
          [fx.erasable, fx.strangerToken],
          ['ghost-user', fx.adminToken],
        ],
        ([userId, token]) => ({ method: 'DELETE', path: pathsOf('/user/:userId', { userId: [userId] }), token }),
      ),
  },
  // Promotions (§16).
  { route: 'GET /admin/promotions', runs: 20, requests: () => adminGets(pathsOf('/admin/promotions')) },
  {
    route: 'POST /admin/promotions',
    runs: 80,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/promotions'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                id: fc.constantFrom('fz-promo-1', 'fz-promo-2'),
                name: text(100),
                active: fc.boolean(),
                kioskIds: fc.constantFrom([fx.kioskT], [fx.kioskT, fx.kioskA]),
                minItems: fc.integer({ min: 1, max: 1000 }),
                budgetPoints: fc.integer({ min: 1, max: 100_000_000 }),
                hours: fc.constantFrom('Sa-Su 00:00-24:00', 'Mo-Fr 08:00-18:00'),
                multiplier: fc.constantFrom(1.1, 2, 10),
              },
              { requiredKeys: ['id', 'name', 'multiplier'] },
            ),
            {
              multiplier: fc.constantFrom<unknown>(1, 10.1, 1.25, 0, -2, '2', null, true, []),
              bonusPoints: fc.constantFrom<unknown>(0, 10_001, 1.5, '5', null, 5),
              budgetPoints: fc.constantFrom<unknown>(0, 100_000_001, 1.5, '5', true),
              endsAt: fc.constantFrom<unknown>('2020-01-01T00:00:00Z', 'yesterday', 5, null),
              hours: hostileText(60),
              kioskIds: fc.constantFrom<unknown>([], ['a/b'], 'kiosk', [1]),
            },
            fuzzed,
          ),
      }),
  },
  {
    route: 'POST /admin/promotions/simulate',
    runs: 60,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/promotions/simulate'),
        token: fx.adminToken,
        body: (fuzzed) =>
          bodies(
            fc.record(
              {
                kioskId: fc.constantFrom(fx.kioskT, 'ghost-kiosk'),
                userId: fc.constantFrom(fx.user, fx.stranger),
                plasticCount: fc.integer({ min: 0, max: 1000 }),
                metalCount: fc.integer({ min: 1, max: 1000 }),
                occurredAt,
              },
              { requiredKeys: ['kioskId', 'plasticCount', 'metalCount'] },
            ),
            hostileDeposit,
            fuzzed,
          ),
      }),
  },
  {
    route: 'GET /promotions',
    runs: 30,
    requests: () =>
      requestsFor(pool(), {
        method: 'GET',
        path: (fuzzed) =>
          fuzzed
            ? hostileText(60).map((value) => `/promotions?kioskId=${encodeSegment(value)}`)
            : fc.constantFrom('/promotions', `/promotions?kioskId=${fx.kioskT}`, '/promotions?kioskId=ghost'),
      }),
  },
  // Trust (§17): holds, alerts, suspension; no hold or suspicious alert exists here, so only their refusals.
  {
    route: 'GET /admin/holds',
    runs: 40,
    requests: () =>
      adminGets((fuzzed) =>
        fuzzed
          ? fc
              .tuple(fc.constantFrom('state', 'limit', 'cursor'), hostileText(40))
              .map(([name, value]) => `/admin/holds?${name}=${encodeSegment(value)}`)
          : fc.constantFrom('/admin/holds', '/admin/holds?state=all', '/admin/holds?state=open&limit=5'),
      ),
  },
  ...(['release', 'reject'] as const).map((verb): RouteSpec => ({
    route: `POST /admin/holds/:transactionId/${verb}`,
    runs: 30,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf(`/admin/holds/:transactionId/${verb}`, { transactionId: ['ghost-transaction'] }),
        token: fx.adminToken,
        body: (fuzzed) => bodies(fc.record({ reason: text(200) }), { reason: hostileText(220) }, fuzzed),
      }),
  })),
  {
    route: 'POST /admin/alerts/:alertId/resolve',
    runs: 20,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf('/admin/alerts/:alertId/resolve', { alertId: ['ghost-alert'] }),
        token: fx.adminToken,
      }),
  },
  // Suspending a fixture user would refuse the other specs' redemptions: only users without a profile.
  ...(['suspend', 'unsuspend'] as const).map((verb): RouteSpec => ({
    route: `POST /admin/users/:userId/${verb}`,
    runs: 20,
    requests: () =>
      requestsFor(pool(), {
        method: 'POST',
        path: pathsOf(`/admin/users/:userId/${verb}`, { userId: [fx.stranger, 'ghost-user'] }),
        token: fx.adminToken,
        ...(verb === 'suspend' && {
          body: (fuzzed: boolean) => bodies(fc.record({ reason: text(200) }), { reason: hostileText(220) }, fuzzed),
        }),
      }),
  })),
  // Claims (§18): no anonymous deposit exists here, so every code is unknown (404, counted as a guess) or refused.
  {
    route: 'GET /admin/kiosks/:kioskId/unclaimed',
    runs: 20,
    requests: () => adminGets(pathsOf('/admin/kiosks/:kioskId/unclaimed', { kioskId: [fx.kioskT, 'ghost-kiosk'] })),
  },
  {
    route: 'POST /user/:userId/claims',
    runs: 40,
    requests: () =>
      asCallers('POST', '/user/:userId/claims', ['self', 'adminForUser', 'noProfile', 'stranger'], {
        idempotency: true,
        body: (fuzzed) =>
          bodies(
            fc.record({ code: fc.constantFrom('ZZZZ-ZZZZ-ZZZZ', '7kq2 m9xh 4tzp', 'AAAAAAAAAA') }),
            { code: hostileText(60) },
            fuzzed,
          ),
      }),
    // A wrong code counts against the user the path names, whoever asks and whether or not they exist.
    allowWrite: (request, response, change) =>
      response.status === 404 &&
      change.path ===
        `rateLimits/${bucketDocumentId(claimGuessesOf(decodeURIComponent(request.path.split(/[/?]/)[2])))}`,
  },
];

/** A voucher code as a person may write it (§12): as issued, in lower case, in groups of four. */
const writtenCodes = (code: string): string[] => [
  code,
  code.toLowerCase(),
  code.replace(/(.{4})(?!$)/g, '$1-').toLowerCase(),
  code.replace(/(.{4})(?!$)/g, '$1 '),
];

/**
 * Codes the voucher routes know otherwise: a cancelled one at times (the cancel endpoint's
 * redemption), one of a reward of another partner, and one of no voucher (both 404).
 */
const otherCodes = (): string[] => [fx.redemptionCode, fx.otherVoucher, '7KQ2M9XH4TZP'];

/** GET /user/{id}/history or /redemptions: a page of valid `limit`, or hostile `limit`/`cursor` when fuzzed. */
function userPageSpec(list: 'history' | 'redemptions'): RouteSpec {
  const callers: Caller[] = ['self', 'admin', 'stranger'];
  return {
    route: `GET /user/:userId/${list}`,
    runs: 80,
    requests: () =>
      each(callers.map(idAndToken), ([userId, token]) => ({
        method: 'GET',
        path: (fuzzed) => pageQueries(fuzzed).map((query) => `/user/${encodeSegment(userId)}/${list}${query}`),
        token,
      })),
  };
}

function pageQueries(fuzzed: boolean): fc.Arbitrary<string> {
  if (!fuzzed) {
    return weighted([1, fc.constant('')], [2, fc.integer({ min: 1, max: 100 }).map((limit) => `?limit=${limit}`)]);
  }
  return weighted(
    [2, hostileText(40).map((limit) => `?limit=${encodeSegment(limit)}`)],
    [2, hostileText(200).map((cursor) => `?cursor=${encodeSegment(cursor)}`)],
    [
      1,
      fc.constantFrom('?limit=0', '?limit=101', '?limit=-1', '?limit=1e2', '?cursor=', '?limit=5&limit=6', '?offset=3'),
    ],
  );
}

/** Days around the fixtures' transactions: some reports hold rows, some span more than 92 days. */
const reportDays = fc
  .integer({ min: -120, max: 120 })
  .map((offset) => utcDay(new Date(Date.now() + offset * 86_400_000)));
const badDays = fc.constantFrom(
  '2026-02-29',
  '2026-13-01',
  '2026-11-31',
  '2026-1-1',
  '20261123',
  '',
  '0000-00-00',
  'today',
);

/** Query strings of the daily report: valid ones, and when fuzzed any parameter hostile, missing, repeated or unknown. */
function reportQueries(fuzzed: boolean): fc.Arbitrary<string> {
  const value = (valid: fc.Arbitrary<string>) =>
    fuzzed ? weighted([4, valid], [1, badDays], [1, hostileText(40)]) : valid;
  const optional = (arbitrary: fc.Arbitrary<string>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
  return fc
    .record({
      from: fuzzed ? optional(value(reportDays)) : reportDays,
      to: fuzzed ? optional(value(reportDays)) : reportDays,
      kioskId: optional(value(fc.constantFrom(fx.kioskT, fx.kioskA, 'ghost-kiosk'))),
      format: optional(value(fc.constantFrom('json', 'csv'))),
      extra: fuzzed
        ? optional(fc.constantFrom('from=2026-11-01', 'limit=10', 'format=csv', '%ZZ=1', 'to'))
        : fc.constant(undefined),
    })
    .map(({ extra, ...params }) => {
      const pairs = Object.entries(params)
        .filter(([, text]) => text !== undefined)
        .map(([name, text]) => `${name}=${encodeSegment(text!)}`);
      return `?${[...pairs, ...(extra === undefined ? [] : [extra])].join('&')}`;
    });
}

/** Any method on any path: unknown routes, wrong methods, OPTIONS and HEAD. */
const anyRoute: RouteSpec = {
  route: 'any method, any path',
  runs: 120,
  allowWrite: (request, _response, change) => isLivenessRecord(request, change),
  requests: () =>
    fc
      .tuple(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        weighted(
          [
            4,
            fc
              .tuple(fc.constantFrom(...routes.map((route) => route.path)), fc.boolean())
              .chain(([template, fuzzed]) => {
                const params = (template.match(/:\w+/g) ?? []).map((param) => [param.slice(1), [fx.kioskA, fx.user]]);
                return pathsOf(template, Object.fromEntries(params))(fuzzed);
              }),
          ],
          [
            2,
            fc
              .array(segments(['kiosk', 'kiosks', 'user', 'admin', 'notify', 'keys', 'push-token'], true), {
                maxLength: 5,
              })
              .map((parts) => `/${parts.join('/')}`),
          ],
          [
            1,
            fc.constantFrom(
              '//',
              '/kiosks/',
              '/kiosk',
              '/admin',
              '/admin/kiosks/x/keys/y/z',
              '/KIOSKS',
              '/%',
              '/..',
              '/./kiosks',
              '/kiosks/..',
              '/api/kiosks',
              '/kiosks;x',
              '*',
              '/?',
            ),
          ],
        ),
        focuses,
      )
      .chain(([method, path, focus]) =>
        fc
          .record({
            headers: headers(pool(), { apiKey: fx.keyA, token: fx.adminToken, idempotency: true }, focus),
            body: weighted<FuzzBody | undefined>(
              [3, fc.constant(undefined)],
              [2, fc.jsonValue({ maxDepth: 2 }).map((json): FuzzBody => ({ json }))],
              [1, oddBodies],
            ),
          })
          .map(({ headers: sent, body }): FuzzRequest =>
            body === undefined ? { method, path, headers: sent } : { method, path, headers: sent, body },
          ),
      ),
};

// ---------------------------------------------------------------------------------
// The properties

/** Markers of internals that must never reach a client; group 1 (or the match) is the marker itself. */
const LEAK_PATTERNS = [
  /\n\s+(at \S+)/,
  /(node_modules)/,
  /(?:^|[\s("'=])(\/(?:work|home|root|tmp|usr|srv|opt|app|workspace|var)\/\S+)/,
  /\b([\w-]+\.(?:ts|js|mjs|cjs):\d+)/,
  /\b(TypeError|ReferenceError|RangeError|SyntaxError|URIError|FirebaseError|GrpcError)\b/,
  /\b(INVALID_ARGUMENT|FAILED_PRECONDITION|DEADLINE_EXCEEDED|RESOURCE_EXHAUSTED|ALREADY_EXISTS|Application error)\b/,
];

/** Internals found in the answer's strings, unless the request itself carried them (echoed ids). */
function leaks(request: FuzzRequest, body: unknown): string[] {
  const sent = requestStrings(request);
  const found: string[] = [];
  for (const text of stringsIn(body)) {
    for (const pattern of LEAK_PATTERNS) {
      const match = pattern.exec(text);
      const marker = match?.[1] ?? match?.[0];
      if (marker && !sent.some((s) => s.includes(marker))) found.push(marker.slice(0, 80));
    }
  }
  return found;
}

function shapeProblems(spec: RouteSpec, request: FuzzRequest, response: RawResponse, before: DbSnapshot): string[] {
  const problems: string[] = [];
  const crash = response.headers[HANDLER_CRASH_HEADER];
  if (crash) problems.push(`handleApiRequest rejected instead of answering: ${crash}`);
  let body: any;
  try {
    body = response.text ? JSON.parse(response.text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.status >= 500 && !spec.allow5xx?.(request, response, body, before)) {
    problems.push(`server error ${response.status}`);
  }
  if (response.headers[RUNTIME_ERROR_HEADER]) {
    // The runtime refused the body before the function ran (malformed JSON, charset).
    if (![400, 413, 415].includes(response.status)) problems.push(`runtime answered ${response.status}`);
    return problems;
  }
  if (response.status === 204) return problems;
  const contentType = String(response.headers['content-type'] ?? '');
  const text = response.status < 300 ? spec.textAnswer?.(request) : undefined;
  if (text !== undefined) {
    if (!contentType.startsWith(`${text};`)) problems.push(`content-type "${contentType}" is not ${text}`);
    return problems;
  }
  if (!/^application\/json\b/i.test(contentType)) problems.push(`content-type "${contentType}" is not JSON`);
  if (request.method === 'HEAD') return problems;
  if (body === undefined) {
    problems.push('body is not JSON');
    return problems;
  }
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (response.status >= 300) {
    if (!isObject || typeof body.error !== 'string' || body.error.trim() === '') {
      problems.push('error body is not { error: "<non-empty string>" }');
    }
    const leaked = leaks(request, body);
    if (leaked.length > 0) problems.push(`internals in the answer: ${leaked.join(' | ')}`);
    if (response.status === 405 && !response.headers.allow) problems.push('405 without Allow');
    if (response.status === 429 && !response.headers['retry-after']) problems.push('429 without Retry-After');
  } else if (!isObject || (body.success !== true && body.status !== 'ok' && !isApiDescription(request, body))) {
    problems.push('2xx body is not an object with success: true');
  } else if (Array.isArray(body.results)) {
    // A batch answers each item as the single endpoint would: the same rules hold per item.
    for (const result of body.results) {
      if (result.status >= 500) problems.push(`batch item answered ${result.status}`);
      else if (result.status >= 300 && (typeof result.error !== 'string' || result.error.trim() === '')) {
        problems.push('batch item error without { error: "<non-empty string>" }');
      }
    }
    const leaked = leaks(
      request,
      body.results.filter((result: { status: number }) => result.status >= 300),
    );
    if (leaked.length > 0) problems.push(`internals in a batch item's answer: ${leaked.join(' | ')}`);
  }
  return problems;
}

/** GET /openapi.json answers the OpenAPI document itself (contract §10), which has no room for `success`. */
const isApiDescription = (request: FuzzRequest, body: Record<string, unknown>): boolean =>
  request.method === 'GET' &&
  request.path.split('?')[0].replace(/\/$/, '') === '/openapi.json' &&
  body.openapi === '3.1.0';

const clip = (value: string, max = 400) =>
  value.length > max ? `${value.slice(0, max)}… (${value.length} chars)` : value;

const describeRequest = (request: FuzzRequest): string =>
  [
    `request: ${request.method} ${clip(request.path, 200)}`,
    `headers: ${clip(JSON.stringify(request.headers), 300)}`,
    `body: ${request.body === undefined ? '(none)' : clip(encodeBody(request.body).toString('utf8'))}`,
  ].join('\n');

/** How often each status was answered, per property; FUZZ_STATS=1 prints them. */
const STATS = process.env.FUZZ_STATS === '1';
const statusCounts: Record<string, Record<number, number>> = {};

/** FUZZ_COLLECT=1: run every request of a property and list each distinct failure, instead of stopping at the first. */
const COLLECT = process.env.FUZZ_COLLECT === '1';
const collected = new Map<string, string>();

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Set when a request got no answer in time: it may still hold Firestore locks, so
 * the properties after it would fail for that reason alone and say so instead.
 */
let hungIn: { route: string; request: string } | undefined;

/**
 * The request under way. fast-check abandons a run when the time limit interrupts it;
 * the next property waits for it so that its writes are not seen as someone else's.
 */
let inFlight: Promise<unknown> = Promise.resolve();

/** When each property first failed: its shrinking gets SHRINK_BUDGET_MS, then stops. */
const firstFailure = new Map<string, number>();
const SHRINK_BUDGET_MS = 8_000;

function exercise(spec: RouteSpec, request: FuzzRequest): Promise<void> {
  const failedAt = firstFailure.get(spec.route);
  // A shrink candidate that is not run counts as passing: the smallest failure so far is reported.
  if (failedAt !== undefined && Date.now() > failedAt + SHRINK_BUDGET_MS) return Promise.resolve();
  const run = check(spec, request);
  inFlight = run.catch(() => {
    if (!firstFailure.has(spec.route)) firstFailure.set(spec.route, Date.now());
  });
  return run;
}

async function check(spec: RouteSpec, request: FuzzRequest): Promise<void> {
  if (hungIn) {
    // Shrinking the property that hung would only hang again: keep its counterexample.
    if (hungIn.route === spec.route) return;
    throw new Error(`not run: an earlier request of "${hungIn.route}" hung (${hungIn.request})`);
  }
  logs.clear();
  let response: RawResponse;
  try {
    response = await send(
      server.port,
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body === undefined ? undefined : encodeBody(request.body),
      },
      REQUEST_TIMEOUT_MS,
    );
  } catch (error) {
    const body = request.body === undefined ? '' : ` ${clip(encodeBody(request.body).toString('utf8'), 200)}`;
    hungIn = { route: spec.route, request: `${request.method} ${clip(request.path, 200)}${body}` };
    throw new Error(`no answer: ${String(error)}\n${describeRequest(request)}`, { cause: error });
  }
  const tally = (statusCounts[spec.route] ??= {});
  tally[response.status] = (tally[response.status] ?? 0) + 1;
  const before = current;
  const problems = shapeProblems(spec, request, response, before);
  current = await snapshotDb();
  if (response.status >= 400 && response.status < 500) {
    const writes = diffSnapshots(before, current).filter(
      (change) => !spec.allowWrite?.(request, response, change, before),
    );
    if (writes.length > 0) {
      problems.push(`a ${response.status} wrote to Firestore: ${writes.map(describeChange).join('; ')}`);
    }
  }
  if (problems.length > 0) {
    const message = [
      problems.join('\n'),
      describeRequest(request),
      `answer: ${response.status} ${clip(response.text)}`,
      `logs: ${logs
        .recent()
        .map((line) => clip(line, 300))
        .join('\n      ')}`,
    ].join('\n');
    if (!COLLECT) throw new Error(message);
    const failure = /"errorMessage":"((?:[^"\\]|\\.)*)"/.exec(logs.recent().join('\n'))?.[1] ?? '';
    const signature = [spec.route, ...problems.map((p) => p.slice(0, 40)), failure.replace(/\\".*?\\"|\d+/g, '…')].join(
      ' | ',
    );
    const known = collected.get(signature);
    if (!known || message.length < known.length) collected.set(signature, message);
  }
}

async function fuzz(spec: RouteSpec): Promise<void> {
  await inFlight;
  current = await snapshotDb();
  try {
    await fc.assert(
      fc.asyncProperty(spec.requests(), (request) => exercise(spec, request)),
      {
        numRuns: Math.max(1, Math.round(spec.runs * RUN_SCALE)),
        ...(SEED === undefined ? {} : { seed: SEED }),
        // Bounds the run and its shrinking; the best counterexample so far is still reported.
        interruptAfterTimeLimit: 20_000,
      },
    );
  } finally {
    await inFlight;
    if (STATS) process.stdout.write(`${spec.route}: ${JSON.stringify(statusCounts[spec.route])}\n`);
  }
  const failures = [...collected].filter(([signature]) => signature.startsWith(`${spec.route} |`));
  if (failures.length > 0) {
    throw new Error(failures.map(([signature, message]) => `### ${signature}\n${message}`).join('\n\n'));
  }
}

describe('fuzz: every endpoint', () => {
  test('every route has a fuzz property', () => {
    expect(specs.map((spec) => spec.route).sort()).toEqual(
      routes.map((route) => `${route.method} ${route.path}`).sort(),
    );
  });

  for (const spec of specs) {
    test(`${spec.route}: never 5xx, errors are { error } JSON, no write on 4xx`, () => fuzz(spec), 240_000);
  }

  test(`${anyRoute.route}: never 5xx, errors are { error } JSON, no write on 4xx`, () => fuzz(anyRoute), 240_000);
});
