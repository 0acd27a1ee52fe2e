/**
 * Cold-start guard (no timing): importing the entry point must not load what only
 * some routes need. Every instance of every function loads src/index.ts at cold
 * start; nodemailer (mail), opening_hours (kiosk views) and ajv with TypeBox (request
 * bodies) are loaded by their routes on first use, firebase-admin/messaging by the push adapter,
 * and the OpenAPI builder by GET /openapi.json alone. Each route's module is loaded by its first call.
 * `npm run bench` measures the time; this only checks what is loaded.
 */

import { HEAVY_MODULES, heavyModulesIn, type HeavyModule } from '../harness/heavy-modules';
import { loadIsolated } from './module-registry';

/** Which heavy modules are in a fresh module registry after running `load`. */
function heavyLoadedBy(load: () => unknown): { heavy: HeavyModule[]; exported: unknown } {
  const { exported, modules } = loadIsolated(load);
  return { heavy: heavyModulesIn(modules), exported };
}

describe('cold start: importing src/index.ts', () => {
  let fromIndex: HeavyModule[];
  let fromFramework: HeavyModule[];
  let exported: unknown;

  beforeAll(() => {
    ({ heavy: fromIndex, exported } = heavyLoadedBy(() => require('../../src/index')));
    // What the framework modules index.ts needs load by themselves, whoever imports them.
    ({ heavy: fromFramework } = heavyLoadedBy(() => {
      require('firebase-functions/v2/options');
      require('firebase-functions/v2/https');
      require('firebase-functions/v2/firestore');
      require('firebase-admin/app');
      require('firebase-admin/firestore');
    }));
  });

  it('actually loads the entry point', () => {
    expect(Object.keys(exported as object).sort()).toEqual([
      'alertPush',
      'api',
      'claimEffects',
      'deliverWebhook',
      'effectsSweep',
      'holdDecisionEffects',
      'pointsExpiry',
      'redemptionEffects',
      'silentKioskSweep',
      'transactionEffects',
      'usersSweep',
      'voucherUseEffects',
      'webhookFanOut',
    ]);
  });

  it.each(['nodemailer', 'opening_hours', 'ajv', 'TypeBox', 'the OpenAPI builder'] as const)(
    'does not load %s',
    (name) => {
      expect(fromIndex).not.toContain(name);
    },
  );

  it('does not load firebase-admin/messaging', () => {
    expect(fromIndex).not.toContain('firebase-admin/messaging');
  });

  it('does not load the firebase-functions/v2 barrel or firebase-admin/database', () => {
    expect(fromIndex).not.toContain('firebase-functions/v2 (barrel)');
    expect(fromIndex).not.toContain('firebase-admin/database');
  });

  // firebase-functions' https provider imports firebase-admin/auth at load (it
  // verifies callable/auth tokens); the service's own use (ID tokens) is lazy, so
  // firebase-admin/auth may be loaded only because the framework loads it.
  it('adds no heavy module beyond what the framework loads', () => {
    expect(fromIndex.filter((name) => !fromFramework.includes(name))).toEqual([]);
  });
});

describe('cold start: the OpenAPI builder', () => {
  const builderLoaded = () =>
    Object.keys(require.cache).some((key) => key.includes(HEAVY_MODULES['the OpenAPI builder']));

  it('is loaded by the first GET /openapi.json, and by no other route', async () => {
    await jest.isolateModulesAsync(async () => {
      const { healthRoute } = require('../../src/http/routes/health') as typeof import('../../src/http/routes/health');
      const { openApiRoute: describing } =
        require('../../src/http/routes/openApi') as typeof import('../../src/http/routes/openApi');
      const openApiRoute = describing(() => [healthRoute]);
      const request = { params: {}, query: {}, headers: {}, body: undefined, caller: undefined } as never;
      await healthRoute.handler(request);
      expect(builderLoaded()).toBe(false);
      const { text } = await openApiRoute.handler(request);
      expect(builderLoaded()).toBe(true);
      expect(text?.contentType).toBe('application/json; charset=utf-8');
      // Built, serialised and encoded to UTF-8 once per instance: Express sends the bytes as they are.
      expect(Buffer.isBuffer(text!.content)).toBe(true);
      expect(JSON.parse(text!.content.toString()).openapi).toBe('3.1.0');
      expect((await openApiRoute.handler(request)).text?.content).toBe(text!.content);
    });
  });
});

describe('cold start: an instance loads only the function it serves (FUNCTION_TARGET)', () => {
  const MARKERS = {
    'firebase-functions Firestore provider': '/node_modules/firebase-functions/lib/v2/providers/firestore.js',
    'firebase-functions HTTPS provider': '/node_modules/firebase-functions/lib/v2/providers/https.js',
    'the HTTP layer': '/src/http/api.ts',
    'the transaction trigger': '/src/triggers/transactionCreated.ts',
    'firebase-functions scheduler provider': '/node_modules/firebase-functions/lib/v2/providers/scheduler.js',
    'the alert trigger': '/src/triggers/alertCreated.ts',
    'the silent sweep': '/src/triggers/silentSweep.ts',
    'the effects sweep': '/src/triggers/effectsSweep.ts',
    'the redemption trigger': '/src/triggers/redemptionCreated.ts',
    'the expiry run': '/src/triggers/pointsExpiry.ts',
    'the users sweep': '/src/triggers/usersSweep.ts',
  } as const;
  type Marker = keyof typeof MARKERS;

  /** What `load` returns and the modules loaded by then, in an instance serving `target`. */
  function loadIsolatedAs<T>(target: string, load: () => T): { exported: T; modules: string[] } {
    const saved = process.env.FUNCTION_TARGET;
    process.env.FUNCTION_TARGET = target;
    try {
      return loadIsolated(load);
    } finally {
      if (saved === undefined) delete process.env.FUNCTION_TARGET;
      else process.env.FUNCTION_TARGET = saved;
    }
  }

  function loadAs(target: string): { defined: string[]; loaded: Marker[] } {
    const { exported, modules } = loadIsolatedAs(target, () => require('../../src/index') as Record<string, unknown>);
    return {
      defined: Object.keys(exported).filter((name) => exported[name] !== undefined),
      loaded: (Object.keys(MARKERS) as Marker[]).filter((name) => modules.some((key) => key.includes(MARKERS[name]))),
    };
  }

  /** The route, service and data modules among `modules`, as paths under src/. */
  const routeServiceAndDataModules = (modules: string[]) =>
    modules
      .filter((key) => /\/src\/(http\/routes|services|data)\//.test(key))
      .map((key) => key.replace(/.*\/src\//, ''))
      .sort();

  // The route table names each route's method and path; its module (and the services and data modules behind it,
  // ~20 ms in all) loads on the route's first call.
  it('api: loads the route table and no route, service or data module behind it', () => {
    const { modules } = loadIsolatedAs('api', () => require('../../src/index'));
    expect(routeServiceAndDataModules(modules)).toEqual([
      'http/routes/health.ts',
      'http/routes/index.ts',
      'http/routes/openApi.ts',
    ]);
  });

  it("api: a route's first call loads its own module, not the other routes'", () => {
    const { exported: route, modules } = loadIsolatedAs('api', () => {
      const { loadRoute, routeTable } = require('../../src/http/routes') as typeof import('../../src/http/routes');
      return loadRoute(routeTable.find(({ method, path }) => method === 'GET' && path === '/kiosk/:kioskId')!);
    });
    expect(route.doc.operationId).toBe('getKiosk');
    expect(routeServiceAndDataModules(modules).filter((name) => name.startsWith('http/routes/'))).toEqual([
      'http/routes/getKiosk.ts',
      'http/routes/health.ts',
      'http/routes/index.ts',
      'http/routes/openApi.ts',
    ]);
  });

  it.each([
    ['api', 'the HTTP layer only', ['firebase-functions HTTPS provider', 'the HTTP layer']],
    [
      'transactionEffects',
      'the Firestore trigger only',
      ['firebase-functions Firestore provider', 'the transaction trigger'],
    ],
    [
      'alertPush',
      'the Firestore trigger of alerts only',
      ['firebase-functions Firestore provider', 'the alert trigger'],
    ],
    [
      'redemptionEffects',
      'the Firestore trigger of redemptions only',
      ['firebase-functions Firestore provider', 'the redemption trigger'],
    ],
    ['silentKioskSweep', 'the scheduled sweep only', ['firebase-functions scheduler provider', 'the silent sweep']],
    ['effectsSweep', 'the effects sweep only', ['firebase-functions scheduler provider', 'the effects sweep']],
    ['pointsExpiry', 'the expiry run only', ['firebase-functions scheduler provider', 'the expiry run']],
    ['usersSweep', 'the users sweep only', ['firebase-functions scheduler provider', 'the users sweep']],
  ] as const)('%s: %s', (target, _loads, loaded) => {
    expect(loadAs(target)).toEqual({ defined: [target], loaded });
  });
});
