// Deploy size: what `firebase deploy` uploads from functions/ (the ignore globs of
// firebase.json applied), the built code in lib/, and the production dependencies
// Cloud Build installs from package.json (unpacked, as they sit in the image).
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { functionsDir, repoRoot } from '../lib/paths.mjs';

const globToRegExp = (glob) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/**
 * Bytes and files under `dir`; `skip(path, name)` prunes files and directories.
 * Given `leaveOut(path, name)`, also `kept`: the same count without what it prunes.
 */
function walk(dir, skip = () => false, leaveOut) {
  const all = { bytes: 0, files: 0 };
  const kept = { bytes: 0, files: 0 };
  const visit = (dir, keep) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (skip(path, entry.name)) continue;
      const keepEntry = keep && !leaveOut?.(path, entry.name);
      if (entry.isDirectory()) visit(path, keepEntry);
      else if (entry.isFile()) {
        const { size } = lstatSync(path);
        all.bytes += size;
        all.files += 1;
        if (keepEntry) {
          kept.bytes += size;
          kept.files += 1;
        }
      }
    }
  };
  visit(dir, true);
  return leaveOut ? { ...all, kept } : all;
}

export function deploySize() {
  const config = JSON.parse(readFileSync(join(repoRoot, 'firebase.json'), 'utf8'));
  const functionsConfig = [config.functions].flat()[0];
  const ignore = (functionsConfig.ignore ?? []).map(globToRegExp);
  const upload = walk(functionsDir, (path, name) => ignore.some((re) => re.test(name) || re.test(relative(functionsDir, path))));

  const { kept: libWithoutMaps, ...lib } = walk(join(functionsDir, 'lib'), undefined, (path, name) => name.endsWith('.map'));

  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: functionsDir, encoding: 'utf8' });
  const packages = [...new Set(listed.stdout.split('\n').map((line) => line.trim()).filter(Boolean))].filter((path) => path !== functionsDir);
  let bytes = 0;
  let files = 0;
  for (const dir of packages) {
    const size = walk(dir, (path, name) => name === 'node_modules');
    bytes += size.bytes;
    files += size.files;
  }
  return {
    upload: { ...upload, ignore: functionsConfig.ignore ?? [] },
    lib,
    libWithoutMaps,
    dependencies: { bytes, files, packages: packages.length },
  };
}
