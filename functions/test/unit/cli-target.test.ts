import { parseCommandLine } from '../../src/cli/args';
import { type Command } from '../../src/cli/command';
import { resolveTarget } from '../../src/cli/target';
import { CliError } from '../../src/cli/errors';

const show: Command = { name: 'show', description: 'show', flags: {}, uses: {}, run: async () => undefined };
const EMULATOR_VARIABLES = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'GCLOUD_PROJECT'] as const;

describe('resolveTarget: the emulator or a real project, never one for the other', () => {
  const saved = Object.fromEntries(EMULATOR_VARIABLES.map((name) => [name, process.env[name]]));
  beforeEach(() => EMULATOR_VARIABLES.forEach((name) => delete process.env[name]));
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const targetOf = (...argv: string[]) => resolveTarget(parseCommandLine([...argv, 'show'], [show]).flags);

  test('--project <real> with no emulator in the environment: the real project', () => {
    expect(targetOf('--project', 'kiosk-rewards-prod')).toEqual({ emulator: false, projectId: 'kiosk-rewards-prod' });
  });

  test.each(['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'])(
    '--project <real> while %s is set: refused, naming the variable, rather than silently the emulator',
    (variable) => {
      process.env[variable] = '127.0.0.1:8080';
      expect(() => targetOf('--project', 'kiosk-rewards-prod')).toThrow(CliError);
      expect(() => targetOf('--project', 'kiosk-rewards-prod')).toThrow(
        new RegExp(`${variable} is set .*kiosk-rewards-prod.*unset it.*--emulator`, 's'),
      );
    },
  );

  test('--project <real> --emulator while the emulator hosts are set: that project on the emulator suite', () => {
    process.env.FIRESTORE_EMULATOR_HOST = '127.0.0.1:8080';
    expect(targetOf('--project', 'kiosk-rewards-prod', '--emulator')).toMatchObject({
      emulator: true,
      projectId: 'kiosk-rewards-prod',
      firestoreHost: '127.0.0.1:8080',
    });
  });

  test('a demo project while the emulator hosts are set: the emulator (a demo project exists nowhere else)', () => {
    process.env.FIRESTORE_EMULATOR_HOST = '127.0.0.1:8080';
    expect(targetOf('--project', 'demo-kiosk-rewards')).toMatchObject({
      emulator: true,
      projectId: 'demo-kiosk-rewards',
    });
  });

  test('no --project: the emulator, with the project the emulator hosts came with', () => {
    process.env.FIRESTORE_EMULATOR_HOST = '127.0.0.1:8080';
    process.env.GCLOUD_PROJECT = 'demo-kiosk-rewards-test';
    expect(targetOf()).toMatchObject({ emulator: true, projectId: 'demo-kiosk-rewards-test' });
  });
});
