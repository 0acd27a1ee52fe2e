// `npm run loadtest`: builds the functions, starts the emulator suite for a project
// of its own (demo-kiosk-rewards-load) and runs scripts/load/run.mjs inside it.
import { spawnSync } from 'node:child_process';
import { EMULATORS, buildFunctions, emulatorEnv, ensureLocalSecrets } from './lib/emulators.mjs';
import { repoRoot } from './lib/paths.mjs';

buildFunctions();
ensureLocalSecrets();
const forwarded = process.argv.slice(2).join(' ');
const run = spawnSync(
  'npx',
  ['firebase', 'emulators:exec', '--only', EMULATORS, '--project', 'demo-kiosk-rewards-load', `node scripts/load/run.mjs ${forwarded}`],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...emulatorEnv() } },
);
process.exit(run.status ?? 1);
