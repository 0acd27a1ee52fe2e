/**
 * The operator CLI (`npm run admin -- <command>`): kiosks, kiosk API keys, the admin
 * claim, the rewards config and demo data, through the Admin SDK and the same data
 * and domain modules as the API. Never imported by index.ts, so the deployed
 * functions do not load it.
 *
 * Output: results on stdout (JSON where a script may read them), notes on stderr.
 * Exit codes: 0 done, 1 failed (one line on stderr), 2 bad usage.
 */
import { deleteApp, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth, type UserRecord as AuthUser } from 'firebase-admin/auth';
import { FieldValue, type DocumentReference } from 'firebase-admin/firestore';
import { adminApp, db } from '../adapters/firestore';
import { getKiosk, upsertKiosk, type KioskDefinition } from '../data/kiosks';
import { issueKey, revokeKey, type KioskKeyRecord } from '../data/kioskKeys';
import { rewardsConfigRef } from '../data/rewardsConfig';
import { usersCollection } from '../data/users';
import { assertDocumentId } from '../domain/ids';
import { assertLocation, toKioskView, type KioskRecord, type KioskStatus } from '../domain/kiosk';
import { assertOpeningHours, assertTimeZone } from '../domain/openingHours';
import { parseRewardsConfig, rankFor, type RewardsConfig } from '../domain/rewards';
import type { AdminKioskBody, KioskKeyBody } from '../http/schemas';
import { validateBody } from '../http/validation';
import { profileName } from '../triggers/provisionUser';

const LOCAL_PROJECT_ID = 'demo-kiosk-rewards';
const DEFAULT_FIRESTORE_EMULATOR = '127.0.0.1:8080';
const DEFAULT_AUTH_EMULATOR = '127.0.0.1:9099';
const DEMO_PASSWORD = 'password123';
const DEMO_KEY_LABEL = 'demo';

const USAGE = `Kiosk Rewards operator CLI

Usage: npm run admin -- <command> [flags] [--emulator | --project <id>]

Where it works:
  (default), --emulator   the local emulator suite: Firestore ${DEFAULT_FIRESTORE_EMULATOR},
                          Auth ${DEFAULT_AUTH_EMULATOR}
                          (FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST win when set),
                          project ${LOCAL_PROJECT_ID} unless --project is given
  --project <id>          a real Firebase project, with application default credentials
                          (gcloud auth application-default login); add --emulator to mean
                          that project on the emulator suite instead

Commands:
  kiosk:upsert --id ID --name NAME --address ADDRESS --lat LATITUDE --lng LONGITUDE
               [--hours "Mo-Fr 08:00-20:00"] [--timezone Europe/Berlin]
               [--status available|maintenance|offline]
      Creates a kiosk (defaults: 24/7, UTC, available) or updates one (omitted
      fields and the counters are kept). Prints the kiosk as JSON.
  key:create --kiosk ID [--label LABEL]
      Issues an API key for the kiosk. Prints keyId and apiKey; the key is shown
      this once.
  key:revoke --kiosk ID --key KEY_ID
      Revokes an API key; it stops working at once.
  admin:grant (--email EMAIL | --uid UID)
  admin:revoke (--email EMAIL | --uid UID)
      Sets or removes the custom claim admin: true (other claims are kept).
  rewards:set [--plastic POINTS] [--metal POINTS] [--daily-cap POINTS]
              [--ranks "Bronze:0,Silver:1000,Gold:5000,Platinum:20000"]
      Changes points per item, the most points a user earns per UTC day and the
      ranks in config/rewards; omitted values stay as they are. An invalid config
      is refused.
  rewards:show
      Prints the rewards config in effect.
  seed [--json]
      Demo kiosks, a fresh demo kiosk API key and demo accounts for the local stack
      (emulator only; safe to run again).
  token --email EMAIL [--password PASSWORD]
      Signs in through the Auth emulator and prints only the ID token
      (default password: ${DEMO_PASSWORD}), e.g.
      TOKEN=$(npm run --silent admin -- token --email alice@example.com)
  help
      This text.
`;

/** Bad command line: usage on stderr, exit 2. */
class UsageError extends Error {}
/** A failure to report in one line (or a short list): exit 1. */
class CliError extends Error {}

// ---------------------------------------------------------------- arguments

class Flags {
  constructor(private readonly values: Map<string, string | true>) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  get(name: string): string | undefined {
    const value = this.values.get(name);
    return typeof value === 'string' ? value : undefined;
  }

  required(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new UsageError(`--${name} is required`);
    return value;
  }

  /** Exactly one of the given flags. */
  oneOf(...names: string[]): { name: string; value: string } {
    const given = names.filter((name) => this.has(name));
    if (given.length !== 1) throw new UsageError(`give exactly one of ${names.map((n) => `--${n}`).join(' or ')}`);
    return { name: given[0], value: this.required(given[0]) };
  }
}

interface Parsed {
  command: string | undefined;
  flags: Flags;
}

const GLOBAL_VALUE_FLAGS = ['project'];
const GLOBAL_BOOLEAN_FLAGS = ['emulator'];

function parseArgs(argv: string[], commandFlags: (command: string) => CommandFlags | undefined): Parsed {
  let command: string | undefined;
  let known: CommandFlags | undefined;
  const values = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { command: 'help', flags: new Flags(values) };
    if (!arg.startsWith('--')) {
      if (command !== undefined) throw new UsageError(`unexpected argument "${arg}"`);
      command = arg;
      known = commandFlags(command);
      if (!known) throw new UsageError(`unknown command "${command}"`);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const takesValue = GLOBAL_VALUE_FLAGS.includes(name) || (known?.values ?? []).includes(name);
    const isBoolean = GLOBAL_BOOLEAN_FLAGS.includes(name) || (known?.booleans ?? []).includes(name);
    if (!takesValue && !isBoolean) {
      throw new UsageError(command === undefined ? `unknown flag --${name}` : `unknown flag --${name} for ${command}`);
    }
    if (values.has(name)) throw new UsageError(`--${name} is given twice`);
    if (isBoolean) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      values.set(name, true);
    } else if (equals !== -1) {
      values.set(name, arg.slice(equals + 1));
    } else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      values.set(name, value);
      i++;
    }
  }
  return { command, flags: new Flags(values) };
}

/** "12" becomes 12; anything that is not plainly a number stays a string for the validators to refuse. */
const numberOrText = (value: string): number | string =>
  /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value.trim()) ? Number(value) : value;

// ---------------------------------------------------------------- target

interface Target {
  emulator: boolean;
  projectId: string;
  firestoreHost?: string;
  authHost?: string;
}

/**
 * The emulator unless a real project is named. Emulator hosts already in the
 * environment (npm start, firebase emulators:exec) are kept, and so is the
 * project they came with; --emulator fills in the default hosts.
 */
function resolveTarget(flags: Flags): Target {
  const env = process.env;
  const project = flags.get('project');
  if (project === '') throw new UsageError('--project needs a project id');
  const hostsPreset = Boolean(env.FIRESTORE_EMULATOR_HOST || env.FIREBASE_AUTH_EMULATOR_HOST);
  if (project !== undefined && !flags.has('emulator') && !hostsPreset) {
    if (project.startsWith('demo-')) {
      throw new CliError(`${project} is a demo project, which exists only on the emulator suite: add --emulator`);
    }
    return { emulator: false, projectId: project };
  }
  const presetProject = hostsPreset ? env.GCLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT : undefined;
  const projectId = project ?? presetProject ?? LOCAL_PROJECT_ID;
  env.FIRESTORE_EMULATOR_HOST ||= DEFAULT_FIRESTORE_EMULATOR;
  env.FIREBASE_AUTH_EMULATOR_HOST ||= DEFAULT_AUTH_EMULATOR;
  env.GCLOUD_PROJECT = projectId;
  // The emulators need no Google credentials; without this, the client libraries
  // probe for a GCE metadata server first and may warn about the answer.
  env.METADATA_SERVER_DETECTION ||= 'none';
  return {
    emulator: true,
    projectId,
    firestoreHost: env.FIRESTORE_EMULATOR_HOST,
    authHost: env.FIREBASE_AUTH_EMULATOR_HOST,
  };
}

async function assertAnswers(what: string, host: string, emulatorOnly: boolean): Promise<void> {
  try {
    await fetch(`http://${host}/`, { signal: AbortSignal.timeout(5000) });
  } catch {
    throw new CliError(
      `nothing answers at ${host} (the ${what}): start the local stack with npm start` +
        (emulatorOnly ? '' : ', or name a real project with --project <id>'),
    );
  }
}

// ---------------------------------------------------------------- output

const writeTo = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) => stream.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
const print = (text: string) => writeTo(process.stdout, text);
const printJson = (value: unknown) => print(JSON.stringify(value, null, 2));
const note = (text: string) => writeTo(process.stderr, text);

// ---------------------------------------------------------------- shared steps

interface KioskInput {
  id: string;
  name: string;
  address: string;
  location: { latitude: number | string; longitude: number | string };
  openingHours?: string;
  timezone?: string;
  status?: string;
}

/** The checks of POST /admin/kiosks: the request schema, then id, location, time zone and opening hours. */
function validatedKiosk(input: KioskInput): KioskDefinition {
  const body = validateBody<AdminKioskBody>(
    'adminKioskBody',
    Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
  );
  const location = assertLocation(body.location);
  return {
    id: assertDocumentId(body.id, 'id'),
    name: body.name,
    address: body.address,
    location,
    timezone: body.timezone == null ? undefined : assertTimeZone(body.timezone),
    openingHours: body.openingHours == null ? undefined : assertOpeningHours(body.openingHours, location),
    status: body.status ?? undefined,
  };
}

const auth = () => getAuth(adminApp());

async function findAccountByEmail(email: string): Promise<AuthUser | undefined> {
  try {
    return await auth().getUserByEmail(email);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') return undefined;
    throw error;
  }
}

async function findAccount(by: { name: string; value: string }): Promise<AuthUser> {
  if (by.name === 'email') {
    const account = await findAccountByEmail(by.value);
    if (!account) throw new CliError(`no account with the e-mail address ${by.value}`);
    return account;
  }
  try {
    return await auth().getUser(by.value);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') {
      throw new CliError(`no account with uid ${by.value}`);
    }
    throw error;
  }
}

/** Changes only the admin claim; the account's other custom claims stay. */
async function setAdminClaim(account: AuthUser, admin: boolean): Promise<void> {
  const claims: Record<string, unknown> = { ...(account.customClaims ?? {}) };
  if (admin) claims.admin = true;
  else delete claims.admin;
  await auth().setCustomUserClaims(account.uid, Object.keys(claims).length > 0 ? claims : null);
}

const describeAccount = (account: AuthUser) =>
  account.email ? `${account.email} (uid ${account.uid})` : `uid ${account.uid}`;

/** The stored config and what applies: the defaults when the document is absent or invalid. */
async function storedRewards(): Promise<{
  raw: Record<string, unknown> | undefined;
  config: RewardsConfig;
  problems: string[];
}> {
  const raw = (await rewardsConfigRef().get()).data();
  return { raw, ...parseRewardsConfig(raw) };
}

const ALREADY_EXISTS = 6;

async function createIfMissing(ref: DocumentReference, data: Record<string, unknown>): Promise<void> {
  try {
    await ref.create(data);
  } catch (error) {
    if ((error as { code?: unknown }).code !== ALREADY_EXISTS) throw error;
  }
}

// ---------------------------------------------------------------- commands

interface CommandFlags {
  values?: string[];
  booleans?: string[];
}

interface Command extends CommandFlags {
  /** Checked before anything is contacted: flags that must be given, exactly one of, at least one of. */
  required?: string[];
  oneOf?: string[];
  anyOf?: string[];
  /** Which emulators the command talks to; token needs no Admin SDK at all. */
  uses: { firestore?: boolean; auth?: boolean };
  emulatorOnly?: boolean;
  run: (flags: Flags, target: Target) => Promise<void>;
}

const kioskUpsert: Command = {
  values: ['id', 'name', 'address', 'lat', 'lng', 'hours', 'timezone', 'status'],
  required: ['id', 'name', 'address', 'lat', 'lng'],
  uses: { firestore: true },
  run: async (flags) => {
    const definition = validatedKiosk({
      id: flags.required('id'),
      name: flags.required('name'),
      address: flags.required('address'),
      location: { latitude: numberOrText(flags.required('lat')), longitude: numberOrText(flags.required('lng')) },
      openingHours: flags.get('hours'),
      timezone: flags.get('timezone'),
      status: flags.get('status'),
    });
    const { kiosk, created } = await upsertKiosk(definition);
    await note(`${created ? 'Created' : 'Updated'} kiosk ${kiosk.id}.`);
    await printJson(toKioskView(kiosk, new Date()));
  },
};

const keyCreate: Command = {
  values: ['kiosk', 'label'],
  required: ['kiosk'],
  uses: { firestore: true },
  run: async (flags) => {
    const kioskId = assertDocumentId(flags.required('kiosk'), 'kiosk');
    const { label } = validateBody<KioskKeyBody>('kioskKeyBody', { label: flags.get('label') ?? '' });
    await getKiosk(kioskId);
    const { keyId, apiKey } = await issueKey(kioskId, label ?? '');
    await note(`Issued an API key for kiosk ${kioskId}. It is shown this once: store it in the kiosk's configuration.`);
    await printJson({ kioskId, keyId, apiKey });
  },
};

const keyRevoke: Command = {
  values: ['kiosk', 'key'],
  required: ['kiosk', 'key'],
  uses: { firestore: true },
  run: async (flags) => {
    const kioskId = assertDocumentId(flags.required('kiosk'), 'kiosk');
    const keyId = assertDocumentId(flags.required('key'), 'key');
    if (!(await revokeKey(kioskId, keyId))) throw new CliError(`API key ${keyId} not found for kiosk ${kioskId}`);
    await print(`Revoked API key ${keyId} of kiosk ${kioskId}.`);
  },
};

const adminClaim = (admin: boolean): Command => ({
  values: ['email', 'uid'],
  oneOf: ['email', 'uid'],
  uses: { auth: true },
  run: async (flags) => {
    const account = await findAccount(flags.oneOf('email', 'uid'));
    await setAdminClaim(account, admin);
    await print(
      admin
        ? `${describeAccount(account)} is now an admin. ID tokens issued from now on carry the claim; ` +
            'a signed-in app sees it once its token refreshes (within the hour, or at once with getIdToken(true)).'
        : `${describeAccount(account)} is no longer an admin. ID tokens issued before now keep the claim ` +
            'until they expire (within the hour).',
    );
  },
});

/** "Bronze:0,Silver:1000" as ranks; entries that are not NAME:POINTS are reported, not guessed. */
function parseRanksFlag(text: string): { ranks: unknown[]; problems: string[] } {
  const ranks: unknown[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const colon = entry.lastIndexOf(':');
    if (colon <= 0) {
      problems.push(`--ranks: "${entry}" is not NAME:MIN_TOTAL_POINTS`);
      continue;
    }
    ranks.push({ name: entry.slice(0, colon).trim(), minTotalPoints: numberOrText(entry.slice(colon + 1)) });
  }
  return { ranks, problems };
}

const rewardsSet: Command = {
  values: ['plastic', 'metal', 'daily-cap', 'ranks'],
  anyOf: ['plastic', 'metal', 'daily-cap', 'ranks'],
  uses: { firestore: true },
  run: async (flags) => {
    const { raw } = await storedRewards();
    // Every stored field is kept unless a flag changes it.
    const candidate: Record<string, unknown> = { ...raw };
    const syntaxProblems: string[] = [];
    const plastic = flags.get('plastic');
    const metal = flags.get('metal');
    const dailyCap = flags.get('daily-cap');
    const ranks = flags.get('ranks');
    if (plastic !== undefined) candidate.pointsPerPlastic = numberOrText(plastic);
    if (metal !== undefined) candidate.pointsPerMetal = numberOrText(metal);
    if (dailyCap !== undefined) candidate.dailyPointsCap = numberOrText(dailyCap);
    if (ranks !== undefined) {
      const parsed = parseRanksFlag(ranks);
      candidate.ranks = parsed.ranks;
      syntaxProblems.push(...parsed.problems);
    }
    const { config, problems } = parseRewardsConfig(candidate);
    const all = [...syntaxProblems, ...problems];
    if (all.length > 0) {
      throw new CliError(
        `refused: the rewards config would be invalid, nothing was written:\n${all.map((p) => `  - ${p}`).join('\n')}`,
      );
    }
    await rewardsConfigRef().set({ ...config, updatedAt: FieldValue.serverTimestamp() });
    await note("Saved config/rewards. Transactions from now on use it; a user's rank follows at their next transaction.");
    await printJson(config);
  },
};

const rewardsShow: Command = {
  uses: { firestore: true },
  run: async () => {
    const { raw, config, problems } = await storedRewards();
    if (!raw) await note('config/rewards does not exist: the defaults apply.');
    else if (problems.length > 0) await note(`config/rewards is invalid (${problems.join('; ')}): the defaults apply.`);
    await printJson(config);
  },
};

// ---------------------------------------------------------------- seed

const DEMO_KIOSKS: KioskInput[] = [
  {
    id: 'berlin-alexanderplatz',
    name: 'Berlin Alexanderplatz',
    address: 'Alexanderplatz 1, 10178 Berlin, Germany',
    location: { latitude: 52.521918, longitude: 13.413215 },
    openingHours: '24/7',
    timezone: 'Europe/Berlin',
    status: 'available',
  },
  {
    id: 'munich-marienplatz',
    name: 'München Marienplatz',
    address: 'Marienplatz 8, 80331 München, Germany',
    location: { latitude: 48.137154, longitude: 11.575382 },
    openingHours: 'Mo-Sa 07:00-22:00',
    timezone: 'Europe/Berlin',
    status: 'available',
  },
  {
    id: 'amsterdam-centraal',
    name: 'Amsterdam Centraal',
    address: 'Stationsplein 1, 1012 AB Amsterdam, Netherlands',
    location: { latitude: 52.378901, longitude: 4.900581 },
    openingHours: 'Mo-Fr 06:00-23:00; Sa,Su 08:00-22:00',
    timezone: 'Europe/Amsterdam',
    status: 'available',
  },
  {
    id: 'wien-westbahnhof',
    name: 'Wien Westbahnhof',
    address: 'Europaplatz 2, 1150 Wien, Austria',
    location: { latitude: 48.196641, longitude: 16.337954 },
    openingHours: 'Mo-Sa 06:00-22:00; Su 08:00-20:00',
    timezone: 'Europe/Vienna',
    status: 'maintenance',
  },
];

interface DemoAccount {
  uid: string;
  email: string;
  displayName: string;
  admin: boolean;
  points: number;
  recycledCount: number;
  pushToken?: string;
}

const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    uid: 'demo-alice',
    email: 'alice@example.com',
    displayName: 'Alice Demo',
    admin: false,
    points: 1250,
    recycledCount: 60,
    pushToken: 'demo-device-alice',
  },
  { uid: 'demo-bob', email: 'bob@example.com', displayName: 'Bob Demo', admin: false, points: 0, recycledCount: 0 },
  {
    uid: 'demo-admin',
    email: 'admin@example.com',
    displayName: 'Admin Demo',
    admin: true,
    points: 0,
    recycledCount: 0,
  },
];

interface SeededAccount {
  email: string;
  uid: string;
  admin: boolean;
  created: boolean;
}

/**
 * The profile is written before the account: the Auth trigger then finds it and
 * leaves it alone. An account that already exists is reused and keeps its profile
 * (points earned while trying things out stay).
 */
async function seedAccount(demo: DemoAccount, rewards: RewardsConfig): Promise<SeededAccount> {
  const existing = await findAccountByEmail(demo.email);
  const uid = existing?.uid ?? demo.uid;
  const profile: Record<string, unknown> = {
    name: profileName({ uid, displayName: demo.displayName, email: demo.email }),
    currentPoints: demo.points,
    totalPoints: demo.points,
    recycledCount: demo.recycledCount,
    rank: rankFor(rewards, demo.points),
    createdAt: FieldValue.serverTimestamp(),
  };
  if (demo.pushToken) {
    profile.pushToken = demo.pushToken;
    profile.pushTokenUpdatedAt = FieldValue.serverTimestamp();
  }
  const profileRef = usersCollection().doc(uid);
  let account: AuthUser;
  if (existing) {
    // Left as it is: changing the password would sign the account out everywhere.
    await createIfMissing(profileRef, profile);
    account = existing;
  } else {
    await profileRef.set(profile);
    account = await auth().createUser({
      uid,
      email: demo.email,
      emailVerified: true,
      password: DEMO_PASSWORD,
      displayName: demo.displayName,
    });
  }
  if (demo.admin) await setAdminClaim(account, true);
  return { email: demo.email, uid, admin: demo.admin, created: !existing };
}

/** The raw key cannot be recovered from its hash: every run issues a new demo key and revokes the earlier ones. */
async function freshDemoKey(kioskId: string): Promise<{ keyId: string; apiKey: string; revoked: number }> {
  const issued = await issueKey(kioskId, DEMO_KEY_LABEL);
  const keys = await db().collection('kioskKeys').where('kioskId', '==', kioskId).get();
  let revoked = 0;
  for (const doc of keys.docs) {
    const record = doc.data() as KioskKeyRecord;
    if (doc.id === issued.keyId || record.label !== DEMO_KEY_LABEL || record.revokedAt !== null) continue;
    if (await revokeKey(kioskId, doc.id)) revoked++;
  }
  return { ...issued, revoked };
}

function readyToPaste(projectId: string, kioskId: string, apiKey: string, aliceUid: string): string {
  return [
    `  BASE=http://127.0.0.1:5001/${projectId}/us-central1/api`,
    `  KIOSK_KEY=${apiKey}`,
    '  TOKEN=$(npm run --silent admin -- token --email alice@example.com)',
    '  ADMIN_TOKEN=$(npm run --silent admin -- token --email admin@example.com)',
    '',
    '  curl -s "$BASE/kiosks"',
    `  curl -s -X POST "$BASE/kiosk/transaction" -H "X-API-Key: $KIOSK_KEY" -H 'Content-Type: application/json' \\`,
    `    -d '{"kioskId":"${kioskId}","userId":"${aliceUid}","plasticCount":3,"metalCount":1}'`,
    `  curl -s "$BASE/user/${aliceUid}" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s -X POST "$BASE/notify/topic" -H "Authorization: Bearer $ADMIN_TOKEN" \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -d '{"topic":"all_users","title":"Double points","body":"Double points this weekend"}'`,
  ].join('\n');
}

const seed: Command = {
  booleans: ['json'],
  uses: { firestore: true, auth: true },
  emulatorOnly: true,
  run: async (flags, target) => {
    const kiosks: KioskRecord[] = [];
    for (const input of DEMO_KIOSKS) kiosks.push((await upsertKiosk(validatedKiosk(input))).kiosk);
    const demoKiosk = kiosks[0].id;
    const key = await freshDemoKey(demoKiosk);
    const { config } = await storedRewards();
    const accounts: SeededAccount[] = [];
    for (const demo of DEMO_ACCOUNTS) accounts.push(await seedAccount(demo, config));
    const alice = accounts[0];

    if (flags.has('json')) {
      await printJson({
        projectId: target.projectId,
        kiosks: kiosks.map(({ id, status }) => ({ id, status })),
        apiKey: { kioskId: demoKiosk, keyId: key.keyId, apiKey: key.apiKey, revokedEarlierKeys: key.revoked },
        accounts,
        password: DEMO_PASSWORD,
      });
      return;
    }
    const status = (s: KioskStatus) => (s === 'available' ? '' : ` (${s})`);
    await print(
      [
        `Demo data in project ${target.projectId} on the emulator suite:`,
        `  kiosks    ${kiosks.map((k) => `${k.id}${status(k.status)}`).join(', ')}`,
        `  accounts  ${accounts.map((a) => `${a.email} (uid ${a.uid}${a.admin ? ', admin' : ''})`).join(', ')}`,
        `            password "${DEMO_PASSWORD}"`,
        `  API key   ${key.apiKey}`,
        `            for kiosk ${demoKiosk}, shown this once` +
          (key.revoked > 0 ? `; ${key.revoked} earlier demo key(s) revoked` : ''),
        '',
        'Ready to paste (from the repository root):',
        readyToPaste(target.projectId, demoKiosk, key.apiKey, alice.uid),
      ].join('\n'),
    );
  },
};

// ---------------------------------------------------------------- token

const token: Command = {
  values: ['email', 'password'],
  required: ['email'],
  uses: { auth: true },
  emulatorOnly: true,
  run: async (flags, target) => {
    const email = flags.required('email');
    const url = `http://${target.authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: flags.get('password') ?? DEMO_PASSWORD, returnSecureToken: true }),
    });
    const body = (await response.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
    if (!response.ok || !body.idToken) {
      throw new CliError(`sign-in failed for ${email}: ${body.error?.message ?? `HTTP ${response.status}`}`);
    }
    await print(body.idToken);
  },
};

const COMMANDS: Record<string, Command> = {
  'kiosk:upsert': kioskUpsert,
  'key:create': keyCreate,
  'key:revoke': keyRevoke,
  'admin:grant': adminClaim(true),
  'admin:revoke': adminClaim(false),
  'rewards:set': rewardsSet,
  'rewards:show': rewardsShow,
  seed,
  token,
};

// ---------------------------------------------------------------- main

const flagList = (names: string[]) => names.map((name) => `--${name}`).join(', ');

function checkFlags(command: string, spec: Command, flags: Flags): void {
  for (const name of spec.required ?? []) flags.required(name);
  if (spec.oneOf) flags.oneOf(...spec.oneOf);
  if (spec.anyOf && !spec.anyOf.some((name) => flags.has(name))) {
    throw new UsageError(`${command} needs at least one of ${flagList(spec.anyOf)}`);
  }
}

async function run(argv: string[]): Promise<void> {
  const { command, flags } = parseArgs(argv, (name) =>
    name === 'help' ? {} : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined,
  );
  if (command === undefined || command === 'help') {
    await print(USAGE);
    return;
  }
  const spec = COMMANDS[command];
  checkFlags(command, spec, flags);
  const target = resolveTarget(flags);
  if (spec.emulatorOnly && !target.emulator) {
    throw new CliError(`${command} works against the emulator suite only, not a real project`);
  }
  if (target.emulator) {
    const emulatorOnly = spec.emulatorOnly === true;
    if (spec.uses.firestore) await assertAnswers('Firestore emulator', target.firestoreHost!, emulatorOnly);
    if (spec.uses.auth) await assertAnswers('Auth emulator', target.authHost!, emulatorOnly);
  }
  if (command !== 'token') initializeApp({ projectId: target.projectId });
  await spec.run(flags, target);
}

/** One line, no stack: the operator needs the reason, not the internals. */
function describeFailure(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return /default credentials/i.test(message)
    ? `${message} (sign in with: gcloud auth application-default login)`
    : message;
}

async function main(): Promise<number> {
  let code = 0;
  try {
    await run(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      await note(`error: ${error.message}\n\n${USAGE}`);
      code = 2;
    } else {
      await note(`error: ${describeFailure(error)}`);
      code = 1;
    }
  }
  // Open Firestore channels would keep the process alive.
  await Promise.all(getApps().map((app) => deleteApp(app).catch(() => undefined)));
  return code;
}

void main().then((code) => process.exit(code));
