import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const functionsDir = join(repoRoot, 'functions');
export const cacheDir = join(repoRoot, '.cache');
