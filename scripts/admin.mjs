// `npm run admin -- <command> ...`: the operator CLI (functions/src/cli/admin.ts).
// Compiles the functions first when a source changed since the last build, with
// compiler messages on stderr: stdout carries only what the CLI prints, so
// `TOKEN=$(npm run --silent admin -- token --email alice@example.com)` gets the token alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildFunctions } from './lib/emulators.mjs';
import { functionsDir } from './lib/paths.mjs';

const srcDir = join(functionsDir, 'src');
const libDir = join(functionsDir, 'lib');
const cli = join(libDir, 'cli', 'admin.js');

/**
 * @param {string} dir
 * @returns {Generator<string>}
 */
function* typeScriptSources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptSources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const modified = (/** @type {string} */ path) => statSync(path).mtimeMs;

/** Every source has an output at least as new as itself and as the compiler settings. */
function isBuilt() {
  const settings = Math.max(
    ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((name) => modified(join(functionsDir, name))),
  );
  for (const source of typeScriptSources(srcDir)) {
    const output = join(libDir, relative(srcDir, source).replace(/\.ts$/, '.js'));
    if (!existsSync(output)) return false;
    const built = modified(output);
    if (built < modified(source) || built < settings) return false;
  }
  return true;
}

if (!isBuilt()) {
  try {
    buildFunctions({ quiet: true });
  } catch {
    console.error('error: the functions do not compile (see the messages above)');
    process.exit(1);
  }
}

const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) {
  console.error(`error: could not run the operator CLI: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
