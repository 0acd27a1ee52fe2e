// Before each test file; the emulators' hosts are in the environment (global-setup.ts).
// Handlers run in this process by firebase-functions-test push to the outbox, as on the emulator.
process.env.PUSH_TRANSPORT ??= 'outbox';

// Cold function workers and trigger round trips take seconds on the emulator.
jest.setTimeout(120_000);
