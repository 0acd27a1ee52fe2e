// The integration tier talks to the emulator suite started by `firebase emulators:exec`
// (scripts/test.mjs). These are the defaults when a test file is run by hand against
// emulators started with the same project id.
process.env.GCLOUD_PROJECT ??= 'demo-kiosk-rewards-test';
process.env.FIRESTORE_EMULATOR_HOST ??= '127.0.0.1:8080';
process.env.FIREBASE_AUTH_EMULATOR_HOST ??= '127.0.0.1:9099';
// Handlers run in this process by firebase-functions-test push to the outbox, as on the emulator.
process.env.PUSH_TRANSPORT ??= 'outbox';

// Cold function workers and trigger round trips take seconds on the emulator.
jest.setTimeout(120_000);
