// @redocly/cli (root devDependency), shared by the tests (lint, reference page) and
// `npm start` (the reference page). It needs Node >= 22.12, so it runs on the project's own Node 22 whatever Node
// started the caller, without telemetry or update checks. CommonJS, so that the TypeScript tests can require it too.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

const repoRoot = join(__dirname, '..', '..');
const projectNode = join(repoRoot, 'node_modules', 'node', 'bin', 'node');
const cli = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/**
 * Runs `redocly <args>` from the repository root (where redocly.yaml is).
 * @param {string[]} args
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
function redocly(args) {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolve, reject) => {
    execFile(projectNode, [cli, ...args], { cwd: repoRoot, env, maxBuffer: 2 ** 28 }, (error, stdout, stderr) => {
      // A non-zero exit is an answer (lint findings); not starting at all is a failure.
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ status: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** The reference page: one self-contained HTML file (Redoc and the document inlined, nothing loaded from a CDN). */
function buildReferencePage(/** @type {string} */ documentFile, /** @type {string} */ pageFile) {
  return redocly(['build-docs', documentFile, '--inlineBundle', '--output', pageFile]);
}

module.exports = { repoRoot, redocly, buildReferencePage };
