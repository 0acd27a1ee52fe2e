import { createRequire } from 'node:module';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const functionsDir = join(repoRoot, 'functions');
export const cacheDir = join(repoRoot, '.cache');
/** The operator CLI as built (functions/src/cli/admin.ts). */
export const adminCli = join(functionsDir, 'lib', 'cli', 'admin.js');
/** Loads a module of the functions as built (`./lib/...`), with functions/node_modules: how the scripts reuse the service's own code. */
export const requireFunctions = createRequire(join(functionsDir, 'package.json'));
