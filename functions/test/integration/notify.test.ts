import { MAX_PUSH_PAYLOAD_BYTES } from '../../src/services/notifications';
import { db, resetEmulators } from './helpers';
import { adminHeaders, bearerFor, call, nonAdminHeaders } from './requests';
import { seedUser } from './seeds';

beforeEach(resetEmulators);

const outboxMessages = async () => (await db().collection('pushOutbox').get()).docs.map((d) => d.get('message'));

const notifyAsAdmin = async (audience: 'topic' | 'user', body: unknown) =>
  call('POST', `/notify/${audience}`, { headers: await adminHeaders(), body });

describe('POST /notify/topic', () => {
  test('sends to a configured topic and answers with the provider message id', async () => {
    const res = await notifyAsAdmin('topic', {
      topic: 'offers_updates',
      title: 'Double points',
      body: 'All weekend',
      data: { type: 'offer' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Notification sent to topic offers_updates',
      pushResponse: { messageId: expect.stringMatching(/^projects\/.+\/messages\/.+/) },
    });
    expect(await outboxMessages()).toEqual([
      {
        topic: 'offers_updates',
        notification: { title: 'Double points', body: 'All weekend' },
        data: { type: 'offer' },
      },
    ]);
  });

  test('data is optional', async () => {
    const res = await notifyAsAdmin('topic', { topic: 'all_users', title: 'Hello', body: 'World' });
    expect(res.status).toBe(200);
  });

  test.each([
    [{ topic: 'everyone', title: 't', body: 'b' }, 'topic must be one of all_users, offers_updates'],
    [{ topic: 'all_users', title: 't', body: 'b', data: { n: 1 } }, 'data.n must be string'],
    [
      { topic: 'all_users', title: 't', body: 'b', data: { from: 'x' } },
      'data.from is a key reserved by the push provider',
    ],
    [{ topic: 'all_users', body: 'b' }, 'title is required'],
  ])('%p: 400', async (body, message) => {
    const res = await notifyAsAdmin('topic', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(await outboxMessages()).toEqual([]);
  });

  test('without a token: 401; a non-admin: 403', async () => {
    const body = { topic: 'all_users', title: 't', body: 'b' };
    expect((await call('POST', '/notify/topic', { body })).status).toBe(401);
    const res = await call('POST', '/notify/topic', { headers: await nonAdminHeaders(), body });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('This endpoint requires an admin account');
  });
});

describe('POST /notify/user', () => {
  test('by userId: pushes to the registered device and keeps an in-app message', async () => {
    const userId = await seedUser({ pushToken: 'phone-1' });
    const content = { title: 'Welcome', body: 'Thanks for joining', data: { screen: 'home' } };
    const res = await notifyAsAdmin('user', { userId, ...content });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: `Notification sent to user ${userId}`,
      pushResponse: { messageId: expect.any(String) },
    });
    expect(await outboxMessages()).toEqual([
      { token: 'phone-1', notification: { title: 'Welcome', body: 'Thanks for joining' }, data: { screen: 'home' } },
    ]);
    const inApp = await db().doc(`users/${userId}/notifications/${res.body.notificationId}`).get();
    expect(inApp.data()).toMatchObject({ type: 'message', ...content, read: false });
  });

  test('by pushToken: pushes to that device', async () => {
    const res = await notifyAsAdmin('user', { pushToken: 'raw-device', title: 'Hi', body: 'There' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Notification sent to device');
    expect(await outboxMessages()).toEqual([
      { token: 'raw-device', notification: { title: 'Hi', body: 'There' }, data: {} },
    ]);
  });

  test.each([[{ title: 't', body: 'b' }], [{ userId: 'u', pushToken: 'p', title: 't', body: 'b' }]])(
    'not exactly one recipient %p: 400',
    async (body) => {
      const res = await notifyAsAdmin('user', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('userId or pushToken: exactly one recipient is required');
    },
  );

  test('unknown user: 404', async () => {
    const res = await notifyAsAdmin('user', { userId: 'ghost', title: 't', body: 'b' });
    expect(res.status).toBe(404);
  });

  test('user without a push token: 409, nothing stored', async () => {
    const userId = await seedUser();
    const res = await notifyAsAdmin('user', { userId, title: 't', body: 'b' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`User ${userId} has no registered push token`);
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(0);
  });

  test('a token the provider reports unregistered: 410, removed from the user, nothing stored', async () => {
    const userId = await seedUser({ pushToken: 'unregistered-lost-phone' });
    const res = await notifyAsAdmin('user', { userId, title: 't', body: 'b' });
    expect(res.status).toBe(410);
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBeUndefined();
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(0);
  });

  test('a token the provider calls malformed (invalid-argument): 410, removed from every holder, nothing stored', async () => {
    const userId = await seedUser({ pushToken: 'invalid-garbled-phone' });
    const sameDevice = await seedUser({ pushToken: 'invalid-garbled-phone' });
    const res = await notifyAsAdmin('user', { userId, title: 't', body: 'b' });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('push-token-unregistered');
    for (const holder of [userId, sameDevice]) {
      expect((await db().collection('users').doc(holder).get()).get('pushToken')).toBeUndefined();
    }
    expect((await db().collection(`users/${userId}/notifications`).get()).size).toBe(0);
  });

  test('by pushToken, a malformed token: 410 and removed from the user holding it', async () => {
    const holder = await seedUser({ pushToken: 'invalid-raw-device' });
    const res = await notifyAsAdmin('user', { pushToken: 'invalid-raw-device', title: 't', body: 'b' });
    expect(res.status).toBe(410);
    expect((await db().collection('users').doc(holder).get()).get('pushToken')).toBeUndefined();
  });

  test.each([
    ['a reserved data key', { data: { from: 'x' } }, 'data.from is a key reserved by the push provider'],
    [
      'more than FCM takes',
      { body: 'b'.repeat(2000), data: { a: 'x'.repeat(1000), b: 'x'.repeat(1000), c: 'x'.repeat(1000) } },
      `title, body and data together must be at most ${MAX_PUSH_PAYLOAD_BYTES} bytes`,
    ],
  ])('a message the service refuses itself (%s): 400 before sending, token kept', async (_what, content, message) => {
    const userId = await seedUser({ pushToken: 'phone-kept' });
    const res = await notifyAsAdmin('user', { userId, title: 't', body: 'b', ...content });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBe('phone-kept');
    expect(await outboxMessages()).toEqual([]);
  });

  test('the provider unavailable: 502, token kept', async () => {
    const userId = await seedUser({ pushToken: 'unavailable-phone' });
    const res = await notifyAsAdmin('user', { userId, title: 't', body: 'b' });
    expect(res.status).toBe(502);
    expect((await db().collection('users').doc(userId).get()).get('pushToken')).toBe('unavailable-phone');
  });

  test('a non-admin: 403', async () => {
    const userId = await seedUser({ pushToken: 'p' });
    const res = await call('POST', '/notify/user', {
      headers: await bearerFor(userId),
      body: { userId, title: 't', body: 'b' },
    });
    expect(res.status).toBe(403);
  });
});
