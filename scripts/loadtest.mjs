// `npm run loadtest`: builds the functions, starts the emulators for project demo-kiosk-rewards-load and runs
// scripts/load/run.mjs in them; its flags (the phases' sizes, `--help`): scripts/load/options.mjs.
import { join } from 'node:path';
import { buildFunctions, runInEmulators } from './lib/emulators.mjs';
import { repoRoot } from './lib/paths.mjs';
import { USAGE, loadOptions } from './load/options.mjs';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
// Checked here too, so a wrong flag is told before the build and the emulators start.
try {
  loadOptions(args);
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
  process.exit(2);
}

buildFunctions();
const status = await runInEmulators({
  projectId: 'demo-kiosk-rewards-load',
  command: ['node', join(repoRoot, 'scripts', 'load', 'run.mjs'), ...args],
});
process.exit(status);
