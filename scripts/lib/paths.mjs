import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const functionsDir = join(repoRoot, 'functions');
export const cacheDir = join(repoRoot, '.cache');
/** The operator CLI as built (functions/src/cli/admin.ts). */
export const adminCli = join(functionsDir, 'lib', 'cli', 'admin.js');
/** Loads a module of the functions as built (`./lib/...`), with functions/node_modules: how the scripts reuse the service's own code. */
export const requireFunctions = createRequire(join(functionsDir, 'package.json'));
