// @ts-check
// The operator console, built by Vite into console/dist, which the Hosting emulator serves (firebase.json).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

export const consoleDir = join(repoRoot, 'console');
const consoleDist = join(consoleDir, 'dist');
/** What a build reads: a change to any of these makes console/dist stale. */
const BUILD_INPUTS = ['src', 'index.html', 'public', 'vite.config.ts', 'package.json', 'tsconfig.json', '.env'];

/** @param {string} path @returns {number} the newest modification time under `path` (0 when absent) */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function consoleBuilt() {
  const built = join(consoleDist, 'index.html');
  return (
    existsSync(built) &&
    statSync(built).mtimeMs >= Math.max(...BUILD_INPUTS.map((name) => newest(join(consoleDir, name))))
  );
}

/** Builds the console (type-check, then `vite build`) unless console/dist is up to date. */
export function buildConsole() {
  if (!consoleBuilt()) execFileSync('npm', ['run', '--silent', 'build'], { cwd: consoleDir, stdio: 'inherit' });
}
