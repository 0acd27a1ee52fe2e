/**
 * What firebase-functions wraps around the `api` handler on every request. Given a `cors` option, it runs its own CORS
 * middleware around each request (a promise, a 'finish' listener and a cors() instance per request); the router does
 * CORS, so that wrapper is only wanted where the emulator's enableCors debug feature would otherwise grant every origin
 * (docs/performance.md, "Time above the floor").
 */
import { EventEmitter } from 'node:events';
import { loadIsolated } from './module-registry';

type Handler = (req: unknown, res: unknown) => Promise<void> | void;

/** The `finish` listeners already on the response when the router answers an OPTIONS request, under `env`. */
async function finishListenersSeenByTheRouter(env: Record<string, string | undefined>): Promise<number> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const restore = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  restore({ FUNCTION_TARGET: 'api', ...env });
  try {
    const { exported } = loadIsolated(() => require('../../src/index') as { api: Handler });
    let seen = -1;
    const res = Object.assign(new EventEmitter(), {
      status: () => res,
      setHeader: (name: string) => {
        if (name === 'Allow') seen = res.listenerCount('finish');
      },
      end: () => res.emit('finish'),
    });
    const req = { method: 'OPTIONS', path: '/', url: '/', headers: {}, query: {}, body: undefined };
    await exported.api(req, res);
    return seen;
  } finally {
    restore({ FUNCTION_TARGET: undefined, ...saved });
  }
}

describe('the api function as deployed', () => {
  it('runs no CORS middleware of the framework around a request (the router does CORS)', async () => {
    expect(await finishListenersSeenByTheRouter({ FIREBASE_DEBUG_MODE: undefined })).toBe(0);
  });

  it("keeps the emulator's enableCors debug feature off with `cors: false`, which the framework wraps", async () => {
    const features = JSON.stringify({ enableCors: true });
    const seen = await finishListenersSeenByTheRouter({
      FIREBASE_DEBUG_MODE: 'true',
      FIREBASE_DEBUG_FEATURES: features,
    });
    expect(seen).toBeGreaterThan(0);
  });
});
