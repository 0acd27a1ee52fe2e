import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ID } from './helpers';

const entryPoint = join(__dirname, '..', '..', 'lib', 'cli', 'admin.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The operator CLI as built by `npm test`, with exactly these arguments; never throws on a non-zero exit. */
export const runCli = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<CliRun>((resolve) => {
    execFile(process.execPath, [entryPoint, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });

/** The CLI against this suite's project on the emulators; never throws on a non-zero exit. */
export const cli = (...args: string[]) => runCli(['--project', PROJECT_ID, '--emulator', ...args]);

/** `cli` for a run that must succeed: its output; a non-zero exit fails the test with what it printed. */
export async function admin(...args: string[]): Promise<string> {
  const run = await cli(...args);
  if (run.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}
