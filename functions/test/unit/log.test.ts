describe('log events', () => {
  const lines: string[] = [];
  let log: typeof import('../../src/log');
  let api: typeof import('../../src/http/api');

  beforeAll(() => {
    // firebase-functions/logger keeps the console methods it found at load time,
    // so the capture is installed first and the logger loaded afresh behind it.
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
    }
    jest.isolateModules(() => {
      log = require('../../src/log');
      api = require('../../src/http/api');
    });
  });
  afterAll(() => jest.restoreAllMocks());

  test('each event is one structured JSON line named by the event, with its fields and no stack trace', () => {
    log.logError('request_failed', { method: 'POST', path: '/kiosk/transaction', errorName: 'Error' });
    log.logWarn('otp_rate_limited', { scope: 'otp-address', retryAfterSeconds: 12 });
    log.logInfo('transaction_awarded', { transactionId: 't1', pointsEarned: 70 });

    expect(lines).toHaveLength(3);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries[0]).toEqual({
      severity: 'ERROR',
      message: 'request_failed',
      method: 'POST',
      path: '/kiosk/transaction',
      errorName: 'Error',
    });
    expect(entries[1]).toEqual({
      severity: 'WARNING',
      message: 'otp_rate_limited',
      scope: 'otp-address',
      retryAfterSeconds: 12,
    });
    expect(entries[2]).toEqual({
      severity: 'INFO',
      message: 'transaction_awarded',
      transactionId: 't1',
      pointsEarned: 70,
    });
    for (const line of lines) expect(line).not.toMatch(/\n\s+at |node_modules/);
  });

  test("a request log names the route's pattern, never the requested path with its code", async () => {
    lines.length = 0;
    // A failure that is no ApiError while the voucher route reads its credential: the
    // request is answered 500 and logged as request_failed.
    const headers = new Proxy({} as Record<string, string>, {
      get: (target, name) => {
        if (name === 'x-api-key') throw new TypeError('header store broken');
        return target[name as string];
      },
    });
    const req = { method: 'GET', path: '/partner/vouchers/SECRETCODE42', headers, query: {}, socket: {} };
    const res = {
      statusCode: 0,
      setHeader: () => res,
      status: (code: number) => ((res.statusCode = code), res),
      json: () => res,
    };
    await api.handleApiRequest(req as never, res as never);

    expect(res.statusCode).toBe(500);
    const entry = lines.map((line) => JSON.parse(line)).find((logged) => logged.message === 'request_failed');
    expect(entry).toMatchObject({ method: 'GET', route: '/partner/vouchers/{code}' });
    expect(lines.join('\n')).not.toContain('SECRETCODE42');
  });
});
