import { OutboxPushTransport, PushError, SIMULATED_TOKEN_PREFIXES, classifyFcmError } from '../../src/adapters/push';

describe('classifyFcmError', () => {
  test.each([
    ['messaging/registration-token-not-registered', 'topic', 'unregistered'],
    ['messaging/registration-token-not-registered', 'token', 'unregistered'],
    ['messaging/invalid-registration-token', 'token', 'unregistered'],
    // FCM v1's answer to a malformed token: the service validated the message itself.
    ['messaging/invalid-argument', 'token', 'unregistered'],
    ['messaging/invalid-argument', 'topic', 'invalid-message'],
    // SENDER_ID_MISMATCH: the token belongs to another project's sender, for good.
    ['messaging/mismatched-credential', 'token', 'unregistered'],
    ['messaging/mismatched-credential', 'topic', 'unavailable'],
    ['messaging/invalid-payload', 'token', 'invalid-message'],
    ['messaging/invalid-payload', 'topic', 'invalid-message'],
    ['messaging/internal-error', 'token', 'unavailable'],
    ['messaging/server-unavailable', 'token', 'unavailable'],
    ['messaging/quota-exceeded', 'topic', 'unavailable'],
    ['messaging/third-party-auth-error', 'token', 'unavailable'],
    ['app/network-error', 'topic', 'unavailable'],
  ] as const)('%s on a %s send is %s', (code, target, failure) => {
    const error = classifyFcmError(Object.assign(new Error('provider says no'), { code }), target);
    expect(error).toBeInstanceOf(PushError);
    expect(error).toBeInstanceOf(Error);
    expect(error.failure).toBe(failure);
    expect(error.providerCode).toBe(code);
    expect(error.name).toBe('PushError');
    expect(error.message).toBe(`push failed: ${failure} (${code})`);
  });

  test('a plain object with a code is classified too', () => {
    expect(classifyFcmError({ code: 'messaging/invalid-registration-token' }, 'token').failure).toBe('unregistered');
  });

  test.each([
    ['an error without code', new Error('boom')],
    ['undefined', undefined],
    ['null', null],
    ['a string', 'messaging/invalid-argument'],
  ])('%s is unavailable with code "unknown"', (_what, thrown) => {
    const error = classifyFcmError(thrown, 'token');
    expect(error.failure).toBe('unavailable');
    expect(error.providerCode).toBe('unknown');
  });

  test('codes are matched exactly', () => {
    expect(classifyFcmError({ code: 'MESSAGING/INVALID-ARGUMENT' }, 'token').failure).toBe('unavailable');
    expect(classifyFcmError({ code: 'invalid-argument' }, 'token').failure).toBe('unavailable');
  });
});

describe('the outbox simulates FCM by token prefix, through the same classification', () => {
  const outbox = new OutboxPushTransport();
  const failureOf = (token: string) =>
    outbox.send({ token, notification: { title: 't', body: 'b' } }).then(
      () => 'sent',
      (error: unknown) => error,
    );

  test.each([
    ['unregistered-phone', 'messaging/registration-token-not-registered', 'unregistered'],
    ['invalid-phone', 'messaging/invalid-argument', 'unregistered'],
    ['mismatched-phone', 'messaging/mismatched-credential', 'unregistered'],
    ['unavailable-phone', 'messaging/server-unavailable', 'unavailable'],
  ])('%s: FCM code %s, failure %s', async (token, providerCode, failure) => {
    expect(SIMULATED_TOKEN_PREFIXES[`${token.split('-')[0]}-`]).toBe(providerCode);
    const error = await failureOf(token);
    expect(error).toBeInstanceOf(PushError);
    expect(error).toMatchObject({ failure, providerCode });
  });
});
