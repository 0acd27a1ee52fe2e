// Runs once before the integration tier. The emulator suite is the one
// `firebase emulators:exec` started (scripts/test.mjs), or, for a test file run by
// hand, one started with `firebase emulators:start --project demo-kiosk-rewards-test`.
// Its hosts go into the environment, which every test file inherits.
import { discoverEmulators } from '../harness/emulators';

export default async function globalSetup(): Promise<void> {
  process.env.GCLOUD_PROJECT ??= 'demo-kiosk-rewards-test';
  await discoverEmulators();
}
