// Deploy size: what `firebase deploy` uploads from functions/ (the ignore globs of
// firebase.json applied), the built code in lib/, and the production dependencies
// Cloud Build installs from package.json (unpacked, as they sit in the image).
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { functionsDir, repoRoot } from '../lib/paths.mjs';

const globToRegExp = (glob) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** Bytes and files under `dir`; `skip(path, name)` prunes files and directories. */
function walk(dir, skip = () => false) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip(path, entry.name)) continue;
    if (entry.isDirectory()) {
      const sub = walk(path, skip);
      bytes += sub.bytes;
      files += sub.files;
    } else if (entry.isFile()) {
      bytes += lstatSync(path).size;
      files += 1;
    }
  }
  return { bytes, files };
}

export function deploySize() {
  const config = JSON.parse(readFileSync(join(repoRoot, 'firebase.json'), 'utf8'));
  const functionsConfig = [config.functions].flat()[0];
  const ignore = (functionsConfig.ignore ?? []).map(globToRegExp);
  const upload = walk(functionsDir, (path, name) => ignore.some((re) => re.test(name) || re.test(relative(functionsDir, path))));

  const lib = walk(join(functionsDir, 'lib'));
  const libWithoutMaps = walk(join(functionsDir, 'lib'), (path, name) => name.endsWith('.map'));

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
