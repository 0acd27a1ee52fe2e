import { adminAppOptions } from '../../src/adapters/firestore';
import { GOOGLE_CALL_IDLE_TIMEOUT_MS } from '../../src/adapters/googleHttp';

describe("firebase-admin's app options", () => {
  const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  afterEach(() => {
    if (emulatorHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  });

  test('deployed: calls to Google go through an agent with the idle timeout; the credential keeps its own transport', () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const options = adminAppOptions();
    expect(options?.httpAgent).toMatchObject({ options: { timeout: GOOGLE_CALL_IDLE_TIMEOUT_MS, keepAlive: true } });
    expect(typeof options?.credential?.getAccessToken).toBe('function');
  });

  test('on the emulators (plain HTTP to the Auth emulator): the defaults', () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9099';
    expect(adminAppOptions()).toBeUndefined();
  });
});
