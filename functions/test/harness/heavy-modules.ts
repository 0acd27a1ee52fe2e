/**
 * Modules that cost a cold start noticeably and that only some routes (or none)
 * need, each with where it lives once loaded, matched against loaded module paths.
 * functions/test/unit/cold-start.test.ts checks that importing the entry point loads
 * none of them beyond what the framework itself loads; the bench reports which ones
 * each function's instances load.
 */
export const HEAVY_MODULES = {
  nodemailer: '/node_modules/nodemailer/',
  opening_hours: '/node_modules/opening_hours/',
  ajv: '/node_modules/ajv/',
  // The schemas' builder (~200 modules): loaded with the schemas, by validation and the API description only.
  TypeBox: '/node_modules/@sinclair/typebox/',
  'firebase-admin/auth': '/node_modules/firebase-admin/lib/auth/',
  'firebase-admin/messaging': '/node_modules/firebase-admin/lib/messaging/',
  // The v2 barrel loads every v2 provider and firebase-admin/database (~40 ms).
  'firebase-functions/v2 (barrel)': '/node_modules/firebase-functions/lib/v2/index.js',
  'firebase-admin/database': '/node_modules/firebase-admin/lib/database/',
  '@grpc/grpc-js (Firestore gRPC)': '/node_modules/@grpc/grpc-js/',
  // functions/src/http/apiDescription/openapi.ts, or lib/http/apiDescription/openapi.js as built: GET /openapi.json only.
  'the OpenAPI builder': '/apiDescription/openapi.',
} as const;

export type HeavyModule = keyof typeof HEAVY_MODULES;

/** Which HEAVY_MODULES are among the loaded modules `paths` (e.g. the keys of require.cache). */
export const heavyModulesIn = (paths: readonly string[]): HeavyModule[] =>
  (Object.keys(HEAVY_MODULES) as HeavyModule[]).filter((name) =>
    paths.some((path) => path.includes(HEAVY_MODULES[name])),
  );
