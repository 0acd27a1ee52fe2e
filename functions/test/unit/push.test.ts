import { PushError, SIMULATED_TOKEN_PREFIXES, classifyFcmError } from '../../src/adapters/push';

describe('classifyFcmError', () => {
  test.each([
    ['messaging/registration-token-not-registered', 'unregistered'],
    ['messaging/invalid-registration-token', 'unregistered'],
    ['messaging/invalid-argument', 'invalid-message'],
    ['messaging/invalid-payload', 'invalid-message'],
    ['messaging/internal-error', 'unavailable'],
    ['messaging/server-unavailable', 'unavailable'],
    ['messaging/quota-exceeded', 'unavailable'],
    ['messaging/third-party-auth-error', 'unavailable'],
    ['app/network-error', 'unavailable'],
  ])('%s is %s', (code, failure) => {
    const error = classifyFcmError(Object.assign(new Error('provider says no'), { code }));
    expect(error).toBeInstanceOf(PushError);
    expect(error).toBeInstanceOf(Error);
    expect(error.failure).toBe(failure);
    expect(error.providerCode).toBe(code);
    expect(error.name).toBe('PushError');
    expect(error.message).toBe(`push failed: ${failure} (${code})`);
  });

  test('a plain object with a code is classified too', () => {
    expect(classifyFcmError({ code: 'messaging/invalid-registration-token' }).failure).toBe('unregistered');
  });

  test.each([
    ['an error without code', new Error('boom')],
    ['undefined', undefined],
    ['null', null],
    ['a string', 'messaging/invalid-argument'],
  ])('%s is unavailable with code "unknown"', (_what, thrown) => {
    const error = classifyFcmError(thrown);
    expect(error.failure).toBe('unavailable');
    expect(error.providerCode).toBe('unknown');
  });

  test('codes are matched exactly', () => {
    expect(classifyFcmError({ code: 'MESSAGING/INVALID-ARGUMENT' }).failure).toBe('unavailable');
    expect(classifyFcmError({ code: 'invalid-argument' }).failure).toBe('unavailable');
  });
});

describe('simulated token prefixes', () => {
  test('cover each failure once', () => {
    expect(Object.values(SIMULATED_TOKEN_PREFIXES).sort()).toEqual(['invalid-message', 'unavailable', 'unregistered']);
  });
});
