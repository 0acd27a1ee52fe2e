/**
 * Where a command works: the local emulator suite (the default) or a real project.
 * The flags that choose it are declared here and taken by every command.
 */
import { CliError, UsageError } from './errors';
import type { FlagSpecs, Flags } from './flags';

export const LOCAL_PROJECT_ID = 'demo-kiosk-rewards';
const DEFAULT_FIRESTORE_EMULATOR = '127.0.0.1:8080';
const DEFAULT_AUTH_EMULATOR = '127.0.0.1:9099';
/** firebase.json's emulators.tasks: where the effects sweep queues webhook deliveries. */
const DEFAULT_TASKS_EMULATOR = '127.0.0.1:9499';

export const GLOBAL_FLAGS: FlagSpecs = {
  emulator: {
    description:
      `the local emulator suite, also the default: Firestore ${DEFAULT_FIRESTORE_EMULATOR}, ` +
      `Auth ${DEFAULT_AUTH_EMULATOR} (FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST win when set), ` +
      `project ${LOCAL_PROJECT_ID} unless --project is given`,
  },
  project: {
    value: 'ID',
    description:
      'a real Firebase project, with application default credentials (gcloud auth application-default login); ' +
      'add --emulator to mean that project on the emulator suite instead',
  },
};

export interface Target {
  emulator: boolean;
  projectId: string;
  firestoreHost?: string;
  authHost?: string;
}

const EMULATOR_HOST_VARIABLES = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'] as const;

/**
 * The emulator unless a real project is named. Emulator hosts already in the
 * environment (npm start, firebase emulators:exec) are kept, and so is the
 * project they came with; --emulator fills in the default hosts. A real project
 * named while an emulator host is set is refused: the Admin SDK would quietly
 * talk to the emulator instead.
 */
export function resolveTarget(flags: Flags): Target {
  const env = process.env;
  const project = flags.get('project');
  if (project === '') throw new UsageError('--project needs a project id');
  const presetHost = EMULATOR_HOST_VARIABLES.find((name) => env[name]);
  if (project !== undefined && !flags.has('emulator')) {
    const demo = project.startsWith('demo-');
    if (demo && !presetHost) {
      throw new CliError(`${project} is a demo project, which exists only on the emulator suite: add --emulator`);
    }
    if (!demo && presetHost) {
      const others = EMULATOR_HOST_VARIABLES.filter((name) => name !== presetHost).join(', ');
      throw new CliError(
        `${presetHost} is set (${env[presetHost]}), so --project ${project} would reach the emulator, not the real ` +
          `project: unset it (and ${others}) to reach ${project}, or add --emulator to mean ${project} on the emulator suite`,
      );
    }
    if (!demo) return { emulator: false, projectId: project };
  }
  const hostsPreset = presetHost !== undefined;
  const presetProject = hostsPreset ? env.GCLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT : undefined;
  const projectId = project ?? presetProject ?? LOCAL_PROJECT_ID;
  env.FIRESTORE_EMULATOR_HOST ||= DEFAULT_FIRESTORE_EMULATOR;
  env.FIREBASE_AUTH_EMULATOR_HOST ||= DEFAULT_AUTH_EMULATOR;
  env.CLOUD_TASKS_EMULATOR_HOST ||= DEFAULT_TASKS_EMULATOR;
  env.GCLOUD_PROJECT = projectId;
  // The emulators need no Google credentials; without this, the client libraries
  // probe for a GCE metadata server first and may warn about the answer.
  env.METADATA_SERVER_DETECTION ||= 'none';
  return {
    emulator: true,
    projectId,
    firestoreHost: env.FIRESTORE_EMULATOR_HOST,
    authHost: env.FIREBASE_AUTH_EMULATOR_HOST,
  };
}

export async function assertAnswers(what: string, host: string, emulatorOnly: boolean): Promise<void> {
  try {
    await fetch(`http://${host}/`, { signal: AbortSignal.timeout(5000) });
  } catch {
    throw new CliError(
      `nothing answers at ${host} (the ${what}): start the local stack with npm start` +
        (emulatorOnly ? '' : ', or name a real project with --project <id>'),
    );
  }
}
