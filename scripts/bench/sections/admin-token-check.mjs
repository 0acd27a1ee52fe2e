// @ts-check
// 6. What checking an admin's ID token for revocation costs. On the emulator
// firebase-admin always makes the revocation lookup, so the api's own figures cannot
// show it; here firebase-admin runs as deployed, against a local stand-in for
// Google's public keys and the Auth API's accounts:lookup (the same stand-in the
// unit tests use), and verifies one admin token with and without `checkRevoked`,
// alternating. Deployed, the lookup also costs a network round trip to
// identitytoolkit.googleapis.com, which no local figure includes.
import { performance } from 'node:perf_hooks';
import { summarize } from '../../lib/stats.mjs';
import { startGoogleStandIn } from '../../../functions/test/harness/google-stand-in.ts';
import { requireFn } from '../endpoints.mjs';

const PROJECT_ID = 'demo-bench-token-check';

/** @param {{ runs: number }} plan */
export async function measureAdminTokenCheck({ runs }) {
  const { initializeApp, deleteApp } = requireFn('firebase-admin/app');
  const { getAuth } = requireFn('firebase-admin/auth');
  const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  // firebase-admin reads it at every verification: without it, tokens are checked as deployed.
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const google = await startGoogleStandIn(PROJECT_ID);
  const app = initializeApp(
    { projectId: PROJECT_ID, httpAgent: google.agent, credential: google.credential },
    PROJECT_ID,
  );
  try {
    const auth = getAuth(app);
    google.state.accounts.set('bench-admin', { localId: 'bench-admin' });
    const token = google.idToken('bench-admin', { admin: true });
    /** @type {{ signature: number[], revocation: number[] }} */
    const ms = { signature: [], revocation: [] };
    const time = async (/** @type {boolean} */ checkRevoked) => {
      const started = performance.now();
      await auth.verifyIdToken(token, checkRevoked);
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) await time(i % 2 === 0); // keys fetched and cached, code warm
    for (let i = 0; i < runs; i++) {
      ms.signature.push(await time(false));
      ms.revocation.push(await time(true));
    }
    const signature = summarize(ms.signature);
    const revocation = summarize(ms.revocation);
    console.log(
      `  verifyIdToken: p50 ${signature.p50.toFixed(3)} ms; with checkRevoked: p50 ${revocation.p50.toFixed(3)} ms (${runs} each, alternating)`,
    );
    return { tokenCheck: { runs, signature, revocation, addedP50Ms: revocation.p50 - signature.p50 } };
  } finally {
    await deleteApp(app);
    await google.close();
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  }
}
