// @ts-check
// Section 5 (reported): deploy size. What `firebase deploy` uploads from functions/
// (the ignore globs of firebase.json applied), the built code in lib/, and the
// production dependencies Cloud Build installs from package.json (unpacked, as they
// sit in the image).
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { functionsDir, repoRoot } from '../../lib/paths.mjs';

const globToRegExp = (/** @type {string} */ glob) =>
  new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** @typedef {(path: string, name: string) => boolean} Prune */

/**
 * Bytes and files under `dir`; `skip(path, name)` prunes files and directories.
 * Given `leaveOut(path, name)`, also `kept`: the same count without what it prunes.
 * @param {string} dir
 * @param {Prune} [skip]
 * @param {Prune} [leaveOut]
 * @returns {{ bytes: number, files: number, kept?: { bytes: number, files: number } }}
 */
function walk(dir, skip = () => false, leaveOut) {
  const all = { bytes: 0, files: 0 };
  const kept = { bytes: 0, files: 0 };
  const visit = (/** @type {string} */ dir, /** @type {boolean} */ keep) => {
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

export function measureDeploySize() {
  const config = JSON.parse(readFileSync(join(repoRoot, 'firebase.json'), 'utf8'));
  const functionsConfig = [config.functions].flat()[0];
  /** @type {string[]} */
  const ignoreGlobs = functionsConfig.ignore ?? [];
  const ignore = ignoreGlobs.map(globToRegExp);
  const upload = walk(functionsDir, (path, name) =>
    ignore.some((re) => re.test(name) || re.test(relative(functionsDir, path))),
  );

  const { kept: libWithoutMaps = { bytes: 0, files: 0 }, ...lib } = walk(
    join(functionsDir, 'lib'),
    undefined,
    (path, name) => name.endsWith('.map'),
  );

  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: functionsDir,
    encoding: 'utf8',
  });
  const packages = [
    ...new Set(
      listed.stdout
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ].filter((path) => path !== functionsDir);
  let bytes = 0;
  let files = 0;
  for (const dir of packages) {
    const packageSize = walk(dir, (path, name) => name === 'node_modules');
    bytes += packageSize.bytes;
    files += packageSize.files;
  }
  const size = {
    upload: { ...upload, ignore: ignoreGlobs },
    lib,
    libWithoutMaps,
    dependencies: { bytes, files, packages: packages.length },
  };
  console.log(
    `  upload ${(size.upload.bytes / 1024).toFixed(0)} KiB, built lib ${(size.lib.bytes / 1024).toFixed(0)} KiB, production dependencies ${(size.dependencies.bytes / 1024 ** 2).toFixed(1)} MiB in ${size.dependencies.packages} packages`,
  );
  return size;
}
