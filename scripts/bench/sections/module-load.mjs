// @ts-check
// Section 0 (diagnostic, --diagnose): what loading each function's code costs a fresh
// process, and what the route-specific modules cost the first request that needs
// them. Explains the cold-start figures of section 1; judged by no target.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { functionsDir } from '../../lib/paths.mjs';
import { median } from '../../lib/stats.mjs';
import { SCHEDULES } from '../seed.mjs';
import { functionEnv, moduleLoad } from '../host.mjs';
import { fmtMs } from '../measure.mjs';
import { COLD_KIOSK } from './cold-start.mjs';

// The cold-start kiosk's schedule (seed.mjs), and one only opening_hours reads.
const PLAIN_SCHEDULE = SCHEDULES[COLD_KIOSK % SCHEDULES.length];
const LIBRARY_SCHEDULE = 'Mo-Fr 06:00-22:00; Sa 08:00-02:00';

/** @param {import('../setup.mjs').Bench} bench */
export function measureModuleLoad(bench) {
  const runs = bench.plan.moduleLoadRuns;
  const moduleLoads = measureEntryPoints(bench.standIns.floorDir, runs);
  for (const row of moduleLoads)
    console.log(
      `  ${fmtMs(row.ms).padStart(6)} ms  ${String(row.modules).padStart(4)} modules  ${row.name}  heavy: ${row.heavy.join(', ') || 'none'}`,
    );
  const firstUse = measureFirstUse(runs);
  for (const row of firstUse) console.log(`  ${fmtMs(row.ms).padStart(6)} ms  first use: ${row.name}`);
  return { moduleLoad: moduleLoads, firstUse };
}

/**
 * @param {string} floorDir
 * @param {number} runCount
 */
function measureEntryPoints(floorDir, runCount) {
  const index = join(functionsDir, 'lib', 'index.js');
  /** @type {{ name: string, entries: string[], cwd: string, functionTarget?: string }[]} */
  const cases = [
    // Deployed, each function's instances load lib/index.js with FUNCTION_TARGET = its name.
    ...['api', 'transactionEffects', 'redemptionEffects'].map((target) => ({
      name: `${target}: lib/index.js, FUNCTION_TARGET=${target}`,
      entries: [index],
      cwd: functionsDir,
      functionTarget: target,
    })),
    {
      name: 'lib/index.js without FUNCTION_TARGET (every function, as deploy-time discovery loads it)',
      entries: [index],
      cwd: functionsDir,
    },
    {
      name: 'floor function (firebase-functions/v2/https + firebase-admin/firestore)',
      entries: [join(floorDir, 'index.js')],
      cwd: floorDir,
      functionTarget: 'api',
    },
    // Loaded on the first Firestore call, not at import: the transport's own cost.
    { name: 'Firestore transport, gRPC: google-gax', entries: ['google-gax'], cwd: functionsDir },
    {
      name: 'Firestore transport, REST: google-gax/build/src/fallback',
      entries: ['google-gax/build/src/fallback'],
      cwd: functionsDir,
    },
  ];
  /** @type {Map<string, any[]>} */
  const runs = new Map(cases.map((c) => [c.name, []]));
  const env = functionEnv();
  for (let i = 0; i < runCount; i++) {
    for (const c of i % 2 ? [...cases].reverse() : cases)
      runs.get(c.name)?.push(moduleLoad({ entries: c.entries, cwd: c.cwd, env, functionTarget: c.functionTarget }));
  }
  return cases.map((c) => {
    const samples = runs.get(c.name) ?? [];
    return {
      name: c.name,
      ms: median(samples.map((s) => s.ms)),
      modules: samples[0].modules,
      rssKb: median(samples.map((s) => s.rssKb)),
      /** @type {string[]} */
      heavy: samples[0].heavy,
      runs: samples.length,
    };
  });
}

/**
 * What the route-specific modules cost the first request that needs them, in a fresh
 * process that has loaded the entry point (median of the runs): what a cold
 * GET /kiosk/{id} pays on top of its floor, and what the lazy loading spares the rest.
 * @param {number} runCount
 */
function measureFirstUse(runCount) {
  const code = `
    require('./lib/index.js');
    const time = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
    const out = {};
    const { isOpenAt } = require('./lib/domain/openingHours.js');
    const where = { latitude: 48.5, longitude: 8.5 };
    out.weeklyFirst = time(() => isOpenAt('${PLAIN_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    out.weeklyWarm = time(() => isOpenAt('${PLAIN_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    out.openingHoursLoad = time(() => require('opening_hours'));
    out.libraryFirst = time(() => isOpenAt('${LIBRARY_SCHEDULE}', 'Europe/Berlin', where, new Date()));
    const { validateBody } = require('./lib/http/validation.js');
    out.ajvFirst = time(() => validateBody('transactionBody', { kioskId: 'k', userId: 'u', plasticCount: 1, metalCount: 0 }));
    out.nodemailerLoad = time(() => require('nodemailer'));
    process.stdout.write(JSON.stringify(out));
  `;
  /** @type {Record<string, number>[]} */
  const runs = [];
  for (let i = 0; i < runCount; i++) {
    const run = spawnSync(process.execPath, ['-e', code], { cwd: functionsDir, env: functionEnv(), encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`first-use measurement failed: ${run.stderr}`);
    runs.push(JSON.parse(run.stdout));
  }
  const m = (/** @type {string} */ key) => median(runs.map((r) => r[key]));
  return [
    {
      name: `first openNow of a plain weekly schedule (src/domain/weeklySchedule.ts, \`${PLAIN_SCHEDULE}\`) + time-zone formatter (Intl, ICU data)`,
      paidBy: 'GET /kiosk/{id}, GET /kiosks, POST /kiosk/{id}/status, POST /admin/kiosks (first request)',
      ms: m('weeklyFirst'),
    },
    { name: 'openNow once warm (parsed schedule cached)', paidBy: 'every kiosk view', ms: m('weeklyWarm') },
    {
      name: 'require opening_hours',
      paidBy:
        'the first kiosk whose schedule is outside the plain weekly form (sunrise, holidays, months, times past midnight...)',
      ms: m('openingHoursLoad'),
    },
    {
      name: `first parse by opening_hours (\`${LIBRARY_SCHEDULE}\`)`,
      paidBy: 'each new such schedule',
      ms: m('libraryFirst'),
    },
    {
      name: 'ajv + ajv-formats load, first schema compiled',
      paidBy: 'routes with a body (first request of each schema)',
      ms: m('ajvFirst'),
    },
    { name: 'require nodemailer', paidBy: 'POST /send-otp-email (first mail)', ms: m('nodemailerLoad') },
  ];
}
