/**
 * Where the console learns its Firebase project and, locally, the emulators: from the
 * Hosting it is served by, never from the build. Firebase Hosting (and its emulator)
 * answers the reserved URL /__/firebase/init.json with the project's web config, so one
 * build runs against any project. The emulators' addresses are only in the script
 * /__/firebase/init.js?useEmulator=true, which the Hosting emulator fills with a line
 * `var firebaseEmulators = {...};` (in production: absent, or `= undefined`). The
 * script itself expects the compat SDK, so it is read as text, never run.
 */
import type { FirebaseOptions } from 'firebase/app';

export interface Environment {
  firebaseConfig: FirebaseOptions;
  /** `host:port` of the Auth emulator; undefined in production. */
  authEmulatorHost: string | undefined;
}

/** The object spans several lines (indented JSON); the first `};` closes it. */
const EMULATORS_LINE = /var firebaseEmulators = (\{[\s\S]*?\});/;

export async function loadEnvironment(): Promise<Environment> {
  const [configAnswer, initScript] = await Promise.all([
    fetch('/__/firebase/init.json'),
    fetch('/__/firebase/init.js?useEmulator=true').then((answer) => (answer.ok ? answer.text() : '')),
  ]);
  if (!configAnswer.ok)
    throw new Error(`The Firebase web config is not served (/__/firebase/init.json: ${configAnswer.status})`);
  const firebaseConfig = (await configAnswer.json()) as FirebaseOptions;
  const emulators = EMULATORS_LINE.exec(initScript);
  const auth = emulators ? (JSON.parse(emulators[1]) as { auth?: { hostAndPort?: string } }).auth : undefined;
  return { firebaseConfig, authEmulatorHost: auth?.hostAndPort };
}
