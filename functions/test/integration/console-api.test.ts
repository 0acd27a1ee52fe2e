/**
 * What the operator console needs of the API (contract §11): a user found by e-mail
 * address, the whole rewards catalog, a kiosk's keys, and every route under the
 * `/api` prefix that Firebase Hosting rewrites to the function.
 */
import { getAuth } from 'firebase-admin/auth';
import { FieldValue } from 'firebase-admin/firestore';
import { adminApp } from '../../src/adapters/firestore';
import { cli } from './cli-runner';
import { db, resetEmulators } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { seedKiosk, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

/** An Auth account with this address, and (unless told) its profile. */
async function accountWithEmail(email: string, { profile = true } = {}): Promise<string> {
  const uid = uniqueId('user');
  await getAuth(adminApp()).createUser({ uid, email });
  if (profile) await seedUser({ id: uid, name: 'Ada', currentPoints: 40, totalPoints: 1200 });
  return uid;
}

const findUsers = async (email: string | undefined, headers?: Record<string, string>) =>
  call('GET', email === undefined ? '/admin/users' : `/admin/users?email=${encodeURIComponent(email)}`, {
    headers: headers ?? (await adminHeaders()),
  });

describe('GET /admin/users?email=', () => {
  test('the user of that address, exactly as GET /user/{id} shows them', async () => {
    const uid = await accountWithEmail('ada@example.com');
    await accountWithEmail('grace@example.com');
    const headers = await adminHeaders();
    const res = await findUsers('ada@example.com', headers);
    expect(res.status).toBe(200);
    const profile = await call('GET', `/user/${uid}`, { headers });
    expect(res.body).toEqual({ success: true, users: [profile.body.user] });
    expect(res.body.users[0]).toMatchObject({ id: uid, name: 'Ada', currentPoints: 40, rank: 'Silver' });
  });

  test('case is ignored (Auth stores addresses lower-cased), nothing else: a +tag or a dot is another address', async () => {
    const uid = await accountWithEmail('Ada.Lovelace@Example.com');
    expect((await findUsers('ADA.LOVELACE@EXAMPLE.COM')).body.users.map((user: { id: string }) => user.id)).toEqual([
      uid,
    ]);
    for (const other of ['ada.lovelace+news@example.com', 'adalovelace@example.com']) {
      expect((await findUsers(other)).body).toEqual({ success: true, users: [] });
    }
  });

  test('no account with the address, or an account without a profile: none (nothing is provisioned)', async () => {
    const uid = await accountWithEmail('new@example.com', { profile: false });
    expect((await findUsers('nobody@example.com')).body).toEqual({ success: true, users: [] });
    expect((await findUsers('new@example.com')).body).toEqual({ success: true, users: [] });
    expect((await db().collection('users').doc(uid).get()).exists).toBe(false);
  });

  test('an address of 254 characters is looked up; 255 is a 400', async () => {
    const domain = '@example.com';
    expect((await findUsers(`${'a'.repeat(254 - domain.length)}${domain}`)).body).toEqual({
      success: true,
      users: [],
    });
    const res = await findUsers(`${'a'.repeat(255 - domain.length)}${domain}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'email must be a valid e-mail address of at most 254 characters',
      code: 'invalid-argument',
    });
  });

  test.each([
    ['missing', undefined, 'email is required'],
    ['empty', '', 'email is required'],
    ['blank', '   ', 'email is required'],
    ['not an address', 'ada.example.com', 'email must be a valid e-mail address of at most 254 characters'],
    ['with spaces', ' ada@example.com ', 'email must be a valid e-mail address of at most 254 characters'],
  ])('%s: 400 naming email', async (_what, email, message) => {
    const res = await findUsers(email);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: 'invalid-argument' });
  });

  test('no token: 401; a non-admin: 403', async () => {
    await accountWithEmail('ada@example.com');
    expect((await call('GET', '/admin/users?email=ada%40example.com')).status).toBe(401);
    expect((await findUsers('ada@example.com', await nonAdminHeaders())).status).toBe(403);
  });
});

describe('GET /admin/rewards', () => {
  const setReward = async (fields: Record<string, unknown>) => {
    const res = await call('POST', '/admin/rewards', {
      body: { name: 'Coffee', cost: 300, kind: 'voucher', ...fields },
      headers: await adminHeaders(),
    });
    expect(res.status).toBe(201);
  };

  test('every reward by id, active or not, with the broken ones apart, named with their fields', async () => {
    await setReward({ id: 'tree', name: 'Plant a tree', cost: 200, kind: 'donation' });
    await setReward({ id: 'coffee', cost: 500, stock: 0 });
    await setReward({ id: 'retired', cost: 50, active: false });
    await setReward({ id: 'broken-stock', stock: 2 });
    await setReward({ id: 'a-broken-cost' });
    await db().collection('rewards').doc('broken-stock').update({ stock: -3 });
    // A field missing altogether: a query ordered by it would not even read the document.
    await db().collection('rewards').doc('a-broken-cost').update({ cost: FieldValue.delete() });

    const res = await call('GET', '/admin/rewards', { headers: await adminHeaders() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      rewards: [
        {
          id: 'coffee',
          name: 'Coffee',
          description: '',
          cost: 500,
          kind: 'voucher',
          available: false,
          stock: 0,
          active: true,
          // A voucher honoured by any partner, valid the default 90 days (§12).
          partnerId: null,
          validDays: 90,
        },
        expect.objectContaining({ id: 'retired', active: false, available: true }),
        expect.objectContaining({ id: 'tree', kind: 'donation', stock: null, active: true }),
      ],
      invalidRewards: [
        { id: 'a-broken-cost', invalidFields: ['cost'] },
        { id: 'broken-stock', invalidFields: ['stock'] },
      ],
    });
    // The public catalog still shows the active, unbroken ones only.
    const offered = (await call('GET', '/rewards')).body.rewards.map((reward: { id: string }) => reward.id);
    expect(offered).toEqual(['tree', 'coffee']);
  });

  test('the CLI catalog lists the same rewards and names the broken ones on stderr', async () => {
    await setReward({ id: 'coffee' });
    await setReward({ id: 'mug', cost: 800 });
    await db().collection('rewards').doc('mug').update({ kind: 'gift' });
    const run = await cli('catalog', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((reward: { id: string }) => reward.id)).toEqual(['coffee']);
    // Beside the log's own warning (JSON), a line for people.
    expect(run.stderr.split('\n')).toContain('Reward mug is broken (kind): catalog:set with those fields mends it.');
  });

  test('an empty catalog: none', async () => {
    const res = await call('GET', '/admin/rewards', { headers: await adminHeaders() });
    expect(res.body).toEqual({ success: true, rewards: [], invalidRewards: [] });
  });

  test('no token: 401; a non-admin: 403', async () => {
    expect((await call('GET', '/admin/rewards')).status).toBe(401);
    expect((await call('GET', '/admin/rewards', { headers: await nonAdminHeaders() })).status).toBe(403);
  });
});

describe('GET /admin/kiosks/{kioskId}/keys', () => {
  test("the kiosk's keys newest first, revoked ones with revokedAt, never the key itself", async () => {
    const kioskId = await seedKiosk();
    const otherKiosk = await seedKiosk();
    const headers = await adminHeaders();
    const issue = async (kiosk: string, label?: string) =>
      (await call('POST', `/admin/kiosks/${kiosk}/keys`, { headers, body: label === undefined ? {} : { label } }))
        .body as { keyId: string; apiKey: string };
    const first = await issue(kioskId, 'installer laptop');
    const second = await issue(kioskId);
    const third = await issue(kioskId, 'front panel');
    await issue(otherKiosk, 'elsewhere');
    expect((await call('DELETE', `/admin/kiosks/${kioskId}/keys/${first.keyId}`, { headers })).status).toBe(200);

    const res = await call('GET', `/admin/kiosks/${kioskId}/keys`, { headers });
    expect(res.status).toBe(200);
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body).toEqual({
      success: true,
      keys: [
        { keyId: third.keyId, label: 'front panel', createdAt: iso, revokedAt: null },
        { keyId: second.keyId, label: '', createdAt: iso, revokedAt: null },
        { keyId: first.keyId, label: 'installer laptop', createdAt: iso, revokedAt: iso },
      ],
    });
    const [newest, , oldest] = res.body.keys;
    expect(newest.createdAt >= oldest.createdAt).toBe(true);
    expect(oldest.revokedAt >= oldest.createdAt).toBe(true);
    for (const { apiKey } of [first, second, third]) expect(res.text).not.toContain(apiKey);
  });

  test('a kiosk without keys: none; an unknown kiosk: 404', async () => {
    const headers = await adminHeaders();
    const kioskId = await seedKiosk();
    expect((await call('GET', `/admin/kiosks/${kioskId}/keys`, { headers })).body).toEqual({ success: true, keys: [] });
    const res = await call('GET', '/admin/kiosks/nowhere/keys', { headers });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Kiosk nowhere not found', code: 'not-found' });
  });

  test('no token: 401; a non-admin: 403', async () => {
    const kioskId = await seedKiosk();
    expect((await call('GET', `/admin/kiosks/${kioskId}/keys`)).status).toBe(401);
    expect((await call('GET', `/admin/kiosks/${kioskId}/keys`, { headers: await nonAdminHeaders() })).status).toBe(403);
  });
});

describe('every route under /api too (the Firebase Hosting rewrite)', () => {
  test('/api and /api/ are GET /; /api/openapi.json is the same document', async () => {
    const health = await call('GET', '/');
    expect((await call('GET', '/api')).body).toEqual(health.body);
    expect((await call('GET', '/api/')).body).toEqual(health.body);
    const document = await call('GET', '/openapi.json');
    expect((await call('GET', '/api/openapi.json')).body).toEqual(document.body);
  });

  test('public, admin and kiosk routes, with their credentials, bodies and path ids', async () => {
    const kioskId = await seedKiosk({ name: 'Alexanderplatz' });
    const headers = await adminHeaders();
    expect((await call('GET', `/api/kiosk/${kioskId}`)).body.kiosk).toMatchObject({ id: kioskId });
    expect((await call('GET', '/api/admin/rewards')).status).toBe(401);
    const issued = await call('POST', `/api/admin/kiosks/${kioskId}/keys`, { headers, body: { label: 'via hosting' } });
    expect(issued.status).toBe(201);
    const status = await call('POST', `/api/kiosk/${kioskId}/status`, {
      headers: { 'x-api-key': issued.body.apiKey },
      body: { status: 'maintenance' },
    });
    expect(status.status).toBe(200);
    expect((await call('GET', `/api/kiosks?status=maintenance`)).body.kiosks).toEqual([
      expect.objectContaining({ id: kioskId, status: 'maintenance' }),
    ]);
  });

  test('errors and OPTIONS name the path as requested', async () => {
    const wrongMethod = await call('DELETE', '/api/kiosks');
    expect([wrongMethod.status, wrongMethod.headers.get('allow'), wrongMethod.body.error]).toEqual([
      405,
      'GET, HEAD',
      'DELETE is not allowed on /api/kiosks',
    ]);
    const options = await call('OPTIONS', '/api/kiosks');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });

  test.each([['/apix'], ['/apix/kiosks'], ['/api/api/kiosks'], ['/api/health']])('%s: 404', async (path) => {
    const res = await call('GET', path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `No endpoint at ${path}`, code: 'not-found' });
  });
});
