import { getAuth } from 'firebase-admin/auth';
import { adminApp } from '../../src/adapters/firestore';
import { DEFAULT_REWARDS } from '../../src/domain/rewards';
import { Timestamp } from 'firebase-admin/firestore';
import { operatorRewards } from '../rewards-config';
import { admin, cli, runCli } from './cli-runner';
import { PROJECT_ID, db, resetEmulators } from './helpers';
import { adminHeaders, call } from './requests';
import { kioskDayRow, seedKiosk, seedKioskDays, seedKioskWithKey } from './seeds';

beforeEach(resetEmulators);

/** Every command with every flag it takes, as an operator would type them. */
const COMMAND_FLAGS: Record<string, string[]> = {
  'kiosk:upsert': ['id', 'name', 'address', 'lat', 'lng', 'hours', 'timezone', 'status'],
  'key:create': ['kiosk', 'label'],
  'key:revoke': ['kiosk', 'key'],
  'report:kiosk-days': ['from', 'to', 'kiosk', 'csv'],
  fleet: ['json'],
  alerts: ['all', 'limit', 'cursor', 'json'],
  'alerts:sweep': [],
  'effects:sweep': ['min-age'],
  'admin:create': ['email'],
  'admin:grant': ['email', 'uid'],
  'admin:revoke': ['email', 'uid'],
  'rewards:set': ['plastic', 'metal', 'daily-cap', 'ranks', 'expire-after-months'],
  'rewards:show': [],
  catalog: ['json'],
  'catalog:set': ['id', 'name', 'cost', 'kind', 'description', 'stock', 'active'],
  'redemption:cancel': ['id', 'reason'],
  audit: [],
  'ledger:backfill': [],
  migrate: ['apply', 'page-size'],
  adjust: ['user', 'points', 'reason', 'key'],
  history: ['user', 'limit', 'json'],
  'expiry:run': ['as-of', 'force'],
  seed: ['json'],
  token: ['email', 'password'],
  help: [],
  // Webhooks (contract §13).
  'webhook:create': ['url', 'events', 'description'],
  'webhook:list': ['json'],
  'webhook:delete': ['id'],
  'webhook:rotate-secret': ['id'],
};

/** The help text cut into one section per command: from the line naming it to the next such line. */
function commandSections(help: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  for (const line of help.split('\n')) {
    const named = /^ {2}(\S+)/.exec(line)?.[1];
    if (named !== undefined && Object.hasOwn(COMMAND_FLAGS, named)) current = named;
    if (current !== undefined) sections.set(current, `${sections.get(current) ?? ''}${line}\n`);
  }
  return sections;
}

describe('help', () => {
  test('help, --help, -h, no command and a command with --help all print the same text, exit 0', async () => {
    const runs = await Promise.all(
      [['help'], ['--help'], ['-h'], [], ['seed', '--help'], ['--project', 'x', 'help']].map((args) => runCli(args)),
    );
    for (const run of runs) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe(runs[0].stdout);
    }
  });

  test('lists every command with each of its flags, and the global flags', async () => {
    const { stdout } = await runCli(['help']);
    const sections = commandSections(stdout);
    expect([...sections.keys()].sort()).toEqual(Object.keys(COMMAND_FLAGS).sort());
    for (const [command, flags] of Object.entries(COMMAND_FLAGS)) {
      for (const flag of flags) expect(`${command}: ${sections.get(command)}`).toMatch(new RegExp(`--${flag}\\b`));
    }
    expect(stdout).toContain('--project');
    expect(stdout).toContain('--emulator');
  });
});

describe('usage errors: exit 2, the reason then the usage on stderr, nothing on stdout', () => {
  test.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--bogus'], 'unknown flag --bogus'],
    [['--json', 'seed'], 'unknown flag --json'],
    [['seed', '--bogus'], 'unknown flag --bogus for seed'],
    [['seed', '--email', 'a@example.com'], 'unknown flag --email for seed'],
    [['seed', '--', 'x'], 'unknown flag -- for seed'],
    [['seed', 'extra'], 'unexpected argument "extra"'],
    [['rewards:set', '--plastic', '1', '--plastic', '2'], '--plastic is given twice'],
    [['rewards:set', '--plastic=1', '--plastic', '2'], '--plastic is given twice'],
    [['--project', 'a', '--project=b', 'rewards:show'], '--project is given twice'],
    [['key:create', '--kiosk'], '--kiosk needs a value'],
    [['key:create', '--kiosk', '--label', 'x'], '--kiosk needs a value'],
    [['rewards:show', '--project'], '--project needs a value'],
    [['seed', '--json=yes'], '--json takes no value'],
    [['rewards:show', '--emulator=true'], '--emulator takes no value'],
    [['rewards:show', '--project='], '--project needs a project id'],
    [['key:create'], '--kiosk is required'],
    [['key:revoke', '--kiosk', 'k'], '--key is required'],
    [['admin:grant'], 'give exactly one of --email or --uid'],
    [['admin:revoke', '--email', 'a@example.com', '--uid', 'u'], 'give exactly one of --email or --uid'],
    [
      ['rewards:set'],
      'rewards:set needs at least one of --plastic, --metal, --daily-cap, --ranks, --expire-after-months',
    ],
  ])('%j: %s', async (args, message) => {
    const [run, help] = await Promise.all([runCli(args), runCli(['help'])]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`error: ${message}\n\n${help.stdout}`);
  });
});

describe('the target', () => {
  test('a real project named while FIRESTORE_EMULATOR_HOST is set is refused, exit 1, naming the variable', async () => {
    // As in this suite (firebase emulators:exec sets the emulator hosts), or a shell left from npm start.
    expect(process.env.FIRESTORE_EMULATOR_HOST).toBeDefined();
    const run = await runCli(['--project', 'kiosk-rewards-prod', 'rewards:set', '--plastic', '99']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`FIRESTORE_EMULATOR_HOST is set (${process.env.FIRESTORE_EMULATOR_HOST})`);
    expect(run.stderr).toContain('add --emulator to mean kiosk-rewards-prod on the emulator suite');
  });
});

describe('flags', () => {
  test('take their value as --flag=value or --flag value, negative numbers included', async () => {
    const out = await admin(
      'kiosk:upsert',
      '--id=london-kings-cross',
      '--name',
      "King's Cross",
      '--address=Euston Road, London',
      '--lat',
      '51.5308',
      '--lng',
      '-0.1238',
      '--timezone=Europe/London',
    );
    expect(JSON.parse(out)).toMatchObject({
      id: 'london-kings-cross',
      name: "King's Cross",
      address: 'Euston Road, London',
      location: { latitude: 51.5308, longitude: -0.1238 },
      timezone: 'Europe/London',
      openingHours: '24/7',
      status: 'available',
    });
    const stored = (await db().doc('kiosks/london-kings-cross').get()).data()!;
    expect(stored.location.longitude).toBe(-0.1238);
  });
});

describe('kiosk:upsert', () => {
  const kiosk = (lat: string, lng: string) => [
    'kiosk:upsert',
    '--id',
    'k-bad',
    '--name',
    'n',
    '--address',
    'a',
    '--lat',
    lat,
    '--lng',
    lng,
  ];

  test.each([
    ['91', '0', { latitude: 91, longitude: 0 }],
    ['0', '-181', { latitude: 0, longitude: -181 }],
    ['north', '0', { latitude: 'north', longitude: 0 }],
  ])(
    'refuses --lat %s --lng %s with the message of POST /admin/kiosks, exit 1, nothing written',
    async (lat, lng, location) => {
      const api = await call('POST', '/admin/kiosks', {
        headers: await adminHeaders(),
        body: { id: 'k-bad', name: 'n', address: 'a', location },
      });
      expect(api.status).toBe(400);

      const run = await cli(...kiosk(lat, lng));

      expect(run).toMatchObject({ code: 1, stdout: '', stderr: `error: ${api.body.error}\n` });
      expect((await db().doc('kiosks/k-bad').get()).exists).toBe(false);
    },
  );

  test('refuses a time zone and opening hours the API refuses, with its messages', async () => {
    for (const [flag, value, field] of [
      ['--timezone', 'Mars/Olympus', 'timezone'],
      ['--hours', 'whenever we feel like it', 'openingHours'],
    ]) {
      const api = await call('POST', '/admin/kiosks', {
        headers: await adminHeaders(),
        body: { id: 'k-bad', name: 'n', address: 'a', location: { latitude: 1, longitude: 1 }, [field]: value },
      });
      expect(api.status).toBe(400);
      const run = await cli(...kiosk('1', '1'), flag, value);
      expect(run).toMatchObject({ code: 1, stdout: '', stderr: `error: ${api.body.error}\n` });
    }
  });
});

describe('key:create and key:revoke', () => {
  test('issue a key that the kiosk can use, then revoke it', async () => {
    await admin('kiosk:upsert', '--id', 'k1', '--name', 'K1', '--address', 'a', '--lat', '1', '--lng', '1');
    const { kioskId, keyId, apiKey } = JSON.parse(await admin('key:create', '--kiosk', 'k1', '--label', 'front'));
    expect(kioskId).toBe('k1');
    const status = () =>
      call('POST', '/kiosk/k1/status', { headers: { 'x-api-key': apiKey }, body: { status: 'maintenance' } });
    expect((await status()).status).toBe(200);

    expect(await admin('key:revoke', '--kiosk', 'k1', '--key', keyId)).toBe(`Revoked API key ${keyId} of kiosk k1.\n`);
    expect((await status()).status).toBe(401);
  });
});

describe('report:kiosk-days', () => {
  const seedDays = () =>
    seedKioskDays([
      kioskDayRow('munich', '2026-11-23', 2),
      kioskDayRow('berlin', '2026-11-24', 1),
      kioskDayRow('berlin', '2026-11-23', 5),
      kioskDayRow('berlin', '2026-12-24', 9),
    ]);

  test('prints the rows of GET /admin/reports/kiosk-days as a table with a total line, or as its CSV', async () => {
    await seedDays();
    expect(await admin('report:kiosk-days', '--from', '2026-11-01', '--to=2026-11-30')).toBe(
      [
        'KIOSK   DAY         TRANSACTIONS  PLASTIC  METAL  POINTS',
        'berlin  2026-11-23             5       10      5     200',
        'munich  2026-11-23             2        4      2      80',
        'berlin  2026-11-24             1        2      1      40',
        'total                          8       16      8     320',
        '',
      ].join('\n'),
    );
    const api = await call('GET', '/admin/reports/kiosk-days?from=2026-11-01&to=2026-11-30&kioskId=berlin&format=csv', {
      headers: await adminHeaders(),
    });
    expect(
      await admin('report:kiosk-days', '--from', '2026-11-01', '--to', '2026-11-30', '--kiosk', 'berlin', '--csv'),
    ).toBe(api.text);
  });

  test('a range the API refuses is refused with its message, exit 1; an empty one says so', async () => {
    const api = await call('GET', '/admin/reports/kiosk-days?from=2026-09-01&to=2026-12-31', {
      headers: await adminHeaders(),
    });
    expect(api.status).toBe(400);
    const report = (from: string, to: string) => cli('report:kiosk-days', '--from', from, '--to', to);
    const run = await report('2026-09-01', '2026-12-31');
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `error: ${api.body.error}\n` });
    expect(await report('2026-01-01', '2026-01-31')).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'No transactions from 2026-01-01 to 2026-01-31.\n',
    });
  });
});

describe('fleet, alerts and alerts:sweep', () => {
  /** One line of a table whose first column is `first`, cut into its cells. */
  const row = (table: string, first: string) =>
    table
      .split('\n')
      .find((line) => line.startsWith(`${first} `))
      ?.split(/ {2,}/);

  test('the sweep opens silent alerts; the fleet table and the alert list show them, under the project params', async () => {
    const reporting = await seedKioskWithKey({ id: 'k-reporting' });
    await call('POST', '/kiosk/k-reporting/status', {
      headers: { 'x-api-key': reporting.apiKey },
      body: { status: 'available', fillLevel: { plastic: 93, metal: 40 }, firmwareVersion: '2.4.1', errorCode: 'E-7' },
    });
    await seedKiosk({ id: 'k-silent' });
    await db()
      .doc('kiosks/k-silent')
      .update({ lastSeenAt: Timestamp.fromMillis(Date.now() - 20 * 60_000) });
    await seedKiosk({ id: 'k-new', status: 'maintenance' });

    expect(JSON.parse(await admin('alerts:sweep'))).toEqual({
      checked: 1,
      unfinished: 0,
      opened: 1,
      resolved: 0,
      failed: 0,
      staleFolded: { kiosks: 0, transactions: 0 },
    });

    // KIOSK_ONLINE_MINUTES comes from functions/.env, as the functions read it.
    const env = { ...process.env };
    delete env.KIOSK_ONLINE_MINUTES;
    const fleet = await runCli(['--project', PROJECT_ID, '--emulator', 'fleet'], env);
    expect(fleet.code).toBe(0);
    const [header] = fleet.stdout.split('\n');
    expect(header.split(/ {2,}/)).toEqual([
      'KIOSK',
      'STATUS',
      'ONLINE',
      'LAST SEEN',
      'PLASTIC',
      'METAL',
      'FIRMWARE',
      'ERROR',
      'OPEN ALERTS',
    ]);
    expect(row(fleet.stdout, 'k-reporting')).toEqual([
      'k-reporting',
      'available',
      'yes',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\dZ$/),
      '93%',
      '40%',
      '2.4.1',
      'E-7',
      'bin-full,error',
    ]);
    expect(row(fleet.stdout, 'k-silent')).toEqual([
      'k-silent',
      'available',
      'no',
      expect.stringMatching(/Z$/),
      '-',
      '-',
      '-',
      '-',
      'silent',
    ]);
    expect(row(fleet.stdout, 'k-new')).toEqual(['k-new', 'maintenance', 'no', 'never', '-', '-', '-', '-', '-']);
    const api = await call('GET', '/admin/kiosks', { headers: await adminHeaders() });
    expect(JSON.parse(await admin('fleet', '--json'))).toEqual(
      api.body.kiosks.map((kiosk: Record<string, unknown>) => ({ ...kiosk, openNow: expect.any(Boolean) })),
    );

    const alerts = await admin('alerts');
    expect(alerts.split('\n')[0].split(/ {2,}/)).toEqual(['OPENED', 'KIOSK', 'KIND', 'RESOLVED', 'DETAIL']);
    expect(alerts).toMatch(/ k-silent +silent +open +Not seen since /);
    expect(alerts).toMatch(/ k-reporting +bin-full +open +Bin full: plastic 93% \(alert at 90%\)/);
    expect(alerts).toMatch(/ k-reporting +error +open +Error code E-7/);
  });

  test('alerts pages with --limit and --cursor, as GET /admin/alerts does', async () => {
    const { kioskId, apiKey } = await seedKioskWithKey({ id: 'k-paged' });
    for (const errorCode of ['E1', null, 'E2', null, 'E3']) {
      await call('POST', `/kiosk/${kioskId}/status`, {
        headers: { 'x-api-key': apiKey },
        body: { status: 'available', errorCode },
      });
    }
    const first = await cli('alerts', '--all', '--limit', '2', '--json');
    const page = JSON.parse(first.stdout);
    expect(page.alerts.map((alert: { detail: string }) => alert.detail)).toEqual(['Error code E3', 'Error code E2']);
    const second = await cli('alerts', '--all', '--limit', '2', '--cursor', page.nextCursor);
    expect(second.stdout).toMatch(/Error code E1/);
    expect(second.stderr).toBe('');
    const text = await cli('alerts', '--all', '--limit', '2');
    expect(text.stderr).toMatch(/^More: add --cursor \S+\n$/);
    const bad = await cli('alerts', '--limit', '0');
    expect(bad).toMatchObject({ code: 1, stdout: '', stderr: 'error: limit must be an integer from 1 to 100\n' });
  });
});

describe('seed', () => {
  test('then rewards:show, token, admin:grant and admin:revoke work on the demo data', async () => {
    const report = JSON.parse(await admin('seed', '--json'));
    expect(report).toMatchObject({
      projectId: PROJECT_ID,
      kiosks: [
        { id: 'berlin-alexanderplatz', status: 'available' },
        { id: 'munich-marienplatz', status: 'available' },
        { id: 'amsterdam-centraal', status: 'available' },
        { id: 'wien-westbahnhof', status: 'maintenance' },
      ],
      apiKey: { kioskId: 'berlin-alexanderplatz', revokedEarlierKeys: 0 },
      accounts: [
        { email: 'alice@example.com', uid: 'demo-alice', admin: false, created: true },
        { email: 'bob@example.com', uid: 'demo-bob', admin: false, created: true },
        { email: 'admin@example.com', uid: 'demo-admin', admin: true, created: true },
      ],
      rewards: [
        { id: 'coffee-voucher', cost: 300, kind: 'voucher', stock: 25 },
        { id: 'cinema-ticket', cost: 1000, kind: 'voucher', stock: null },
        { id: 'plant-a-tree', cost: 200, kind: 'donation', stock: null },
      ],
      password: 'password123',
    });
    const catalog = (await call('GET', '/rewards')).body.rewards.map((reward: { id: string }) => reward.id);
    expect(catalog).toEqual(['plant-a-tree', 'coffee-voucher', 'cinema-ticket']);
    expect((await db().doc('users/demo-alice').get()).data()).toMatchObject({ totalPoints: 1250 });

    expect(JSON.parse(await admin('rewards:show'))).toEqual(DEFAULT_REWARDS);

    const token = (await admin('token', '--email', 'alice@example.com')).trim();
    expect(token.split('.')).toHaveLength(3);
    expect((await call('GET', '/user/demo-alice', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    await admin('admin:grant', '--email', 'bob@example.com');
    expect((await getAuth(adminApp()).getUser('demo-bob')).customClaims).toEqual({ admin: true });
    await admin('admin:revoke', '--uid', 'demo-bob');
    expect((await getAuth(adminApp()).getUser('demo-bob')).customClaims ?? {}).toEqual({});
  });

  test('run again, reuses the accounts, issues a new key and revokes the earlier one; its text names what it made', async () => {
    const first = JSON.parse(await admin('seed', '--json'));
    const text = await admin('seed');

    const second = (await db().collection('kioskKeys').where('kioskId', '==', 'berlin-alexanderplatz').get()).docs;
    expect(second).toHaveLength(2);
    expect(second.find((doc) => doc.id === first.apiKey.keyId)!.get('revokedAt')).not.toBeNull();
    for (const name of ['berlin-alexanderplatz', 'wien-westbahnhof', 'alice@example.com', 'admin@example.com']) {
      expect(text).toContain(name);
    }
    expect(text).toMatch(/curl .*\/kiosk\/transaction/);
    expect(text).toContain('1 earlier demo key(s) revoked');
  });

  test('never brings an erased demo user back', async () => {
    await admin('seed', '--json');
    await admin('user:delete', '--uid', 'demo-alice');
    const again = JSON.parse(await admin('seed', '--json'));
    expect(again.accounts[0]).toEqual({
      email: 'alice@example.com',
      uid: 'demo-alice',
      admin: false,
      created: false,
      erased: true,
    });
    const profile = (await db().doc('users/demo-alice').get()).data();
    expect(profile?.erasedAt).toBeDefined();
    expect(profile).not.toHaveProperty('name');
    expect(
      await getAuth(adminApp())
        .getUser('demo-alice')
        .catch(() => undefined),
    ).toBeUndefined();
  });
});

describe('admin:create', () => {
  test('creates the first operator: an account with the claim, signed in with the password it printed once', async () => {
    const created = await admin('admin:create', '--email', 'first-operator@example.com');
    const password = /Password \(shown this once, stored nowhere\): (\S+)/.exec(created)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const account = await getAuth(adminApp()).getUserByEmail('first-operator@example.com');
    expect(account.customClaims).toEqual({ admin: true });
    const token = (await admin('token', '--email', 'first-operator@example.com', '--password', password!)).trim();
    const fleet = await call('GET', '/admin/kiosks', { headers: { authorization: `Bearer ${token}` } });
    expect(fleet.status).toBe(200);

    // An address with an account is refused, the account left as it was: admin:grant is for it.
    const again = await cli('admin:create', '--email', 'first-operator@example.com');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has an account already: give it the claim with admin:grant');
    const after = await getAuth(adminApp()).getUserByEmail('first-operator@example.com');
    expect(after.passwordHash).toBe(account.passwordHash);
    expect((await cli('admin:create', '--email', 'not-an-address')).stderr).toContain('is not an e-mail address');
  });
});

describe('rewards:set', () => {
  test('keeps every value it was not given', async () => {
    const before = operatorRewards;
    await db().doc('config/rewards').set(before);

    await admin('rewards:set', '--plastic', '15');

    expect((await db().doc('config/rewards').get()).data()).toMatchObject({ ...before, pointsPerPlastic: 15 });
  });

  test('sets the daily cap', async () => {
    await admin('rewards:set', '--daily-cap', '800');
    expect((await db().doc('config/rewards').get()).get('dailyPointsCap')).toBe(800);
  });

  test('refuses an invalid config with every problem, writes nothing, exit 1', async () => {
    const run = await cli('rewards:set', '--metal=lots', '--ranks', 'Gold');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: refused: the rewards config would be invalid, nothing was written:\n {2}- --ranks: "Gold" is not NAME:MIN_TOTAL_POINTS\n {2}- .*pointsPerMetal/,
    );
    expect((await db().doc('config/rewards').get()).exists).toBe(false);
  });
});
