// `npm run admin -- <command> ...`: the operator CLI (functions/src/cli/admin.ts), compiled first when stale, compiler
// messages on stderr: `TOKEN=$(npm run --silent admin -- token --email alice@example.com)` gets the token alone.
import { spawnSync } from 'node:child_process';
import { buildFunctions, functionsBuilt } from './lib/emulators.mjs';
import { adminCli } from './lib/paths.mjs';

if (!functionsBuilt()) {
  try {
    buildFunctions({ quiet: true });
  } catch {
    console.error('error: the functions do not compile (see the messages above)');
    process.exit(1);
  }
}

const result = spawnSync(process.execPath, [adminCli, ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) {
  console.error(`error: could not run the operator CLI: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
