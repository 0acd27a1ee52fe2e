// @ts-check
// Section 2b (diagnostic, --diagnose): where a warm request's CPU goes. The api and
// the same-host floor (floor.js doing the endpoint's Firestore work in a minimal
// onRequest function), each in an instance of its own with V8's sampling profiler
// preloaded (cpu-profiler.cjs), under the same c=16 load: CPU per request by who
// wrote the code (profile.mjs). Explains warm misses; judged by no target.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { API_SOURCE, cpuTimeMs, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { httpSender, keepAliveAgent, loop, sleep } from '../measure.mjs';
import { CPU_CATEGORIES, cpuByCategory } from '../profile.mjs';
import { warmApiEnv } from '../setup.mjs';
import { floorPath, floorReadyPath } from '../stand-ins.mjs';

/** @typedef {import('../endpoints.mjs').EndpointSpec} EndpointSpec */

const PROFILED_ENDPOINTS = ['GET /kiosk/{id}', 'POST /kiosk/transaction', 'POST /notify/topic'];
const PROFILER = join(dirname(fileURLToPath(import.meta.url)), '..', 'cpu-profiler.cjs');

/**
 * Waits for the profile the instance writes on its second SIGUSR2.
 * @param {string} file
 */
async function profileWritten(file) {
  const deadline = performance.now() + 15_000;
  while (!existsSync(file)) {
    if (performance.now() > deadline) throw new Error(`no CPU profile at ${file}`);
    await sleep(50);
  }
  return file;
}

/** @param {import('../setup.mjs').Bench} bench */
export async function measureCpuProfile(bench) {
  const { concurrency, warmup, requests: measuredRequests } = bench.plan.cpuBreakdown;
  const { floorDir, sameHostEnv } = bench.standIns;
  /** @type {{ key: string, source: string, env: Record<string, string>, readyPath: () => string, request: (spec: EndpointSpec, w: number, g: number) => import('../endpoints.mjs').BenchRequest }[]} */
  const variants = [
    {
      key: 'api',
      source: API_SOURCE,
      env: warmApiEnv(bench),
      readyPath: () => '/',
      request: (spec, w, g) => spec.request(w, g),
    },
    {
      key: 'floor',
      source: floorDir,
      env: sameHostEnv,
      readyPath: floorReadyPath,
      request: (spec, w, g) => ({ ...spec.request(w, g), path: floorPath(spec.name, w, g) }),
    },
  ];
  const profileDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-cpu-'));
  const rows = [];
  try {
    for (const variant of variants) {
      const instance = await startFunction({
        source: variant.source,
        env: { ...variant.env, BENCH_CPU_PROFILE_DIR: profileDir, BENCH_CPU_PROFILE_NAME: variant.key },
        name: `cpu-${variant.key}`,
        nodeArgs: ['--require', PROFILER],
      });
      const agent = keepAliveAgent(concurrency);
      const send = httpSender(instance.url, agent);
      let profiles = 0;
      try {
        await waitForSuccess(instance, variant.readyPath());
        for (const name of PROFILED_ENDPOINTS) {
          const spec = bench.specs.find((candidate) => candidate.name === name);
          if (!spec) throw new Error(`no endpoint ${name} to profile`);
          const operation = (/** @type {number} */ w, /** @type {number} */ g) => send(variant.request(spec, w, g));
          await loop(concurrency, warmup, operation);
          process.kill(instance.pid, 'SIGUSR2');
          await sleep(300); // the profiler starts asynchronously
          const before = cpuTimeMs(instance.pid);
          const measured = await loop(concurrency, measuredRequests, operation);
          const processCpuMs = cpuTimeMs(instance.pid) - before;
          process.kill(instance.pid, 'SIGUSR2');
          const file = await profileWritten(join(profileDir, `${variant.key}-${++profiles}.cpuprofile`));
          const requests = measured.latencies.length + measured.failed;
          const byCategory = cpuByCategory(file, floorDir);
          rows.push({
            name,
            variant: variant.key,
            requests,
            failed: measured.failed,
            processCpuPerRequest: processCpuMs / requests,
            perRequest: Object.fromEntries(
              Object.entries(byCategory).map(([category, ms]) => [category, ms / requests]),
            ),
          });
          console.log(
            `  ${variant.key.padEnd(5)} ${name.padEnd(24)} ${(processCpuMs / requests).toFixed(2)} ms CPU/req; service code ${(byCategory[CPU_CATEGORIES[0]] / requests).toFixed(2)} ms/req${measured.failed ? `; FAILED ${measured.failed}` : ''}`,
          );
        }
      } finally {
        agent.destroy();
        await stopFunction(instance);
      }
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
  return rows;
}
