// `npm ci` in the root (firebase-tools, Node 22, maildev), functions/ and console/ (its browser tests' Chromium), each
// only when its lockfile changed since the last install. Runs on the machine's Node, before Node 22 exists.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';

for (const dir of [repoRoot, join(repoRoot, 'functions'), join(repoRoot, 'console')]) {
  const lockfile = join(dir, 'package-lock.json');
  const stamp = join(dir, 'node_modules', '.kiosk-rewards-install');
  // What decides the install: the lockfile and the package.json fields npm ci reads (a changed script is no reason to
  // reinstall).
  const { dependencies, devDependencies, optionalDependencies, overrides } = JSON.parse(
    readFileSync(join(dir, 'package.json'), 'utf8'),
  );
  const fingerprint = createHash('sha256')
    .update(readFileSync(lockfile))
    .update(JSON.stringify({ dependencies, devDependencies, optionalDependencies, overrides }))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) continue;
  // On stderr: stdout belongs to the command that follows (`npm run admin -- token` prints a token there).
  console.error(`Installing dependencies in ${dir} (npm ci)...`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['inherit', 2, 2] });
  writeFileSync(stamp, fingerprint);
}
