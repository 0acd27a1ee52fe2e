// A reporter for Node's test runner (`node --test --test-reporter=<this file>`) that writes the results in the shape
// `jest --json` writes them, so that `npm test` sums up the browser tests with the unit and integration tiers.
import { basename } from 'node:path';

/** @param {AsyncIterable<{ type: string, data: any }>} source the runner's events @returns {AsyncGenerator<string>} */
export default async function* jestShapedResults(source) {
  /** @type {Map<string, { status: string, fullName: string, failureMessages: string[] }[]>} */
  const byFile = new Map();
  /** Names of the suites around the test that ends next, by nesting level. */
  const suites = /** @type {string[]} */ ([]);
  for await (const { type, data } of source) {
    if (type === 'test:start') suites[data.nesting] = data.name;
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    const file = data.file ?? 'unknown file';
    const fullName = [...suites.slice(0, data.nesting), data.name].join(' › ');
    const error = data.details?.error;
    const failureMessages = type === 'test:fail' ? [String(error?.cause?.stack ?? error?.cause ?? error)] : [];
    const results = byFile.get(file) ?? [];
    results.push({
      status: type === 'test:pass' ? 'passed' : 'failed',
      fullName: `${basename(file)}: ${fullName}`,
      failureMessages,
    });
    byFile.set(file, results);
  }
  const all = [...byFile.values()].flat();
  yield JSON.stringify({
    numPassedTests: all.filter(({ status }) => status === 'passed').length,
    numFailedTests: all.filter(({ status }) => status === 'failed').length,
    numRuntimeErrorTestSuites: 0,
    testResults: [...byFile].map(([name, assertionResults]) => ({
      name,
      status: assertionResults.some(({ status }) => status === 'failed') ? 'failed' : 'passed',
      assertionResults,
    })),
  });
}
