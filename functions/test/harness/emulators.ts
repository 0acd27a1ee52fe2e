// The emulator suite a test or script runs against, found the way firebase-tools
// tells it: the environment `firebase emulators:exec` sets, and the hub's list of
// running emulators. No port is written here, so everything runs on any ports.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait.ts';

/** Where each emulator of the run listens (host:port), and the project it serves. */
export interface Emulators {
  projectId: string;
  hub: string;
  firestore: string;
  auth: string;
  /** Absent when the suite runs without the functions emulator. */
  functions?: string;
  /** The operator console; absent when the suite runs without the Hosting emulator. */
  hosting?: string;
}

/**
 * firebase-tools sets a variable for every emulator but the functions and Hosting
 * emulators; discoverEmulators() sets these beside the others, so that the processes
 * it starts (jest's test files) know the api's and the console's hosts without asking
 * the hub again.
 */
const FUNCTIONS_EMULATOR_HOST = 'FUNCTIONS_EMULATOR_HOST';
const HOSTING_EMULATOR_HOST = 'HOSTING_EMULATOR_HOST';

interface RunningEmulator {
  host: string;
  port: number;
}

const hostOf = ({ host, port }: RunningEmulator): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/**
 * The hub of the emulators started for `projectId`: FIREBASE_EMULATOR_HUB inside
 * `firebase emulators:exec`, else the locator file `firebase emulators:start` writes
 * (so a test file also runs by hand against a running suite).
 */
async function findHub(projectId: string): Promise<string> {
  const fromEnv = process.env.FIREBASE_EMULATOR_HUB;
  if (fromEnv) return fromEnv;
  const locator = join(tmpdir(), `hub-${projectId}.json`);
  try {
    const { origins } = JSON.parse(await readFile(locator, 'utf8')) as { origins: string[] };
    return new URL(origins[0]).host;
  } catch {
    throw new Error(
      `no emulator suite found for project ${projectId}: run inside \`firebase emulators:exec\`, ` +
        `or start one with \`firebase emulators:start --project ${projectId}\` (no ${locator})`,
    );
  }
}

/**
 * Asks the hub which emulators run and where, puts their hosts in the environment
 * (where firebase-admin reads them) unless already there, and returns them.
 */
export async function discoverEmulators(): Promise<Emulators> {
  const projectId = process.env.GCLOUD_PROJECT;
  if (!projectId) throw new Error('GCLOUD_PROJECT is not set: run inside `firebase emulators:exec`');
  const hub = await findHub(projectId);
  const response = await fetch(`http://${hub}/emulators`);
  if (!response.ok) throw new Error(`the emulator hub at ${hub} answered ${response.status} to GET /emulators`);
  const running = (await response.json()) as Record<string, RunningEmulator | undefined>;
  for (const [name, variable] of [
    ['firestore', 'FIRESTORE_EMULATOR_HOST'],
    ['auth', 'FIREBASE_AUTH_EMULATOR_HOST'],
    ['functions', FUNCTIONS_EMULATOR_HOST],
    ['hosting', HOSTING_EMULATOR_HOST],
  ] as const) {
    const emulator = running[name];
    if (emulator) process.env[variable] ??= hostOf(emulator);
  }
  process.env.FIREBASE_EMULATOR_HUB ??= hub;
  return emulatorsFromEnv();
}

/** The emulators in the environment (emulators:exec's, or discoverEmulators()'s). */
export function emulatorsFromEnv(): Emulators {
  const variables = [
    'GCLOUD_PROJECT',
    'FIREBASE_EMULATOR_HUB',
    'FIRESTORE_EMULATOR_HOST',
    'FIREBASE_AUTH_EMULATOR_HOST',
  ] as const;
  const missing = variables.filter((name) => !process.env[name]);
  if (missing.length)
    throw new Error(
      `run inside \`firebase emulators:exec\` with the Firestore and Auth emulators (missing ${missing.join(', ')})`,
    );
  return {
    projectId: process.env.GCLOUD_PROJECT!,
    hub: process.env.FIREBASE_EMULATOR_HUB!,
    firestore: process.env.FIRESTORE_EMULATOR_HOST!,
    auth: process.env.FIREBASE_AUTH_EMULATOR_HOST!,
    functions: process.env[FUNCTIONS_EMULATOR_HOST] || undefined,
    hosting: process.env[HOSTING_EMULATOR_HOST] || undefined,
  };
}

/** The `api` function's base URL on the functions emulator. */
export function apiUrl(emulators: Emulators = emulatorsFromEnv()): string {
  if (!emulators.functions) throw new Error('the functions emulator is not running');
  return `http://${emulators.functions}/${emulators.projectId}/us-central1/api`;
}

/**
 * Turns the functions emulator's background triggers (Firestore, Auth) on or off,
 * e.g. to seed without firing them. The emulator turns them on again whenever it
 * reloads the functions.
 */
export async function setBackgroundTriggers(enabled: boolean): Promise<void> {
  const action = enabled ? 'enableBackgroundTriggers' : 'disableBackgroundTriggers';
  const response = await fetch(`http://${emulatorsFromEnv().hub}/functions/${action}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`${action} failed: ${response.status} ${await response.text()}`);
}

/**
 * Empties Firestore and Auth. Firestore answers 409 while a transaction of an
 * earlier test's trigger still holds a lock, so that is retried.
 */
export async function clearEmulators(): Promise<void> {
  const { projectId, firestore, auth } = emulatorsFromEnv();
  await waitFor('Firestore and Auth to clear', async () => {
    const [firestoreCleared, authCleared] = await Promise.all([
      fetch(`http://${firestore}/emulator/v1/projects/${projectId}/databases/(default)/documents`, {
        method: 'DELETE',
      }),
      fetch(`http://${auth}/emulator/v1/projects/${projectId}/accounts`, { method: 'DELETE' }),
    ]);
    return firestoreCleared.ok && authCleared.ok ? true : undefined;
  });
}
