// @ts-check
// BENCHMARKS.md's section 1 (cold start): each instance against its floor, and where
// the difference goes.
import { fmtMb, fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';
import { DIAGNOSE_COMMAND } from './report-diagnostics.mjs';
import { TARGETS, verdict, within } from './report-targets.mjs';

/** @typedef {import('./run.mjs').Results} Results */

const signedMs = (/** @type {number} */ ms) => `${ms >= 0 ? '+' : '−'}${fmtMs(Math.abs(ms))} ms`;
const spanMs = (/** @type {number[]} */ samples) => `${Math.min(...samples)}–${Math.max(...samples)} ms`;

/**
 * Where each cold start's difference to its floor goes, and for a miss, what would
 * close it. The route's own first-use work is known only from a --diagnose run.
 * @param {Results['cold']} cold
 * @param {Results['firstUse']} firstUse
 */
function coldStartGaps(cold, firstUse) {
  const openNowMs = firstUse?.[0].ms;
  return cold.flatMap((row) => {
    const ownWork = row.request.startsWith('GET /kiosk/') ? openNowMs : 0;
    const listen = row.api.listenMs - row.floor.listenMs;
    const request = row.api.firstResponseMs - row.api.listenMs - (row.floor.firstResponseMs - row.floor.listenMs);
    const lines = [
      `- ${row.request}, api against floor (medians): ${signedMs(listen)} until listening (loading the code), ${signedMs(request)} in the first request, ${signedMs(row.api.cpuMs - row.floor.cpuMs)} of CPU. Single runs spread ${spanMs(row.api.samplesMs)} (api) and ${spanMs(row.floor.samplesMs)} (floor).` +
        (row.request.startsWith('GET /kiosk/') && ownWork !== undefined
          ? ` The route’s own extra work, the first openNow, costs ${fmtMs(ownWork)} ms (first-use table below).`
          : ''),
    ];
    if (!within(row.ratio, TARGETS.coldStartRatio)) {
      const gap = row.api.firstResponseMs - row.floor.firstResponseMs;
      const spread = Math.max(...row.api.samplesMs) - Math.min(...row.api.samplesMs);
      const noisy = `single runs of the same instance spread over ${fmtMs(spread)} ms on this machine, so a run on a quiet machine is the first thing to try.`;
      const explained = `The route’s own first-use work explains ${fmtMs(ownWork)} ms of the ${fmtMs(gap)} ms gap; `;
      lines.push(
        `  - **Missed (${fmtRatio(row.ratio)}×).** ` +
          (ownWork === undefined
            ? `How much of the ${fmtMs(gap)} ms gap is the route’s own first-use work is measured by ${DIAGNOSE_COMMAND}; ${noisy}`
            : ownWork >= gap / 2
              ? `${explained}closing it means taking that work out of the first request.`
              : `${explained}the rest is not work of the route’s own, and ${noisy}`) +
          ' Independently of the code, `minInstances: 1` on `api` keeps cold starts off user requests (at the price of one idle instance).',
      );
    }
    return lines;
  });
}

/**
 * @param {Results} results
 * @param {(...lines: string[]) => void} p appends lines to BENCHMARKS.md
 */
export function coldStartSection(results, p) {
  const { cold } = results;
  p('## 1. Cold start', '');
  p(
    'A fresh functions-framework process, timed from spawn to the first 200 of the request, polled on fresh connections every few ms. The floor is a minimal `onRequest` function on the same host and libraries that does the same work (scripts/bench/floor.js): for `GET /kiosk/{id}` one document read, for `GET /user/{id}` the ID-token check and one document read. "Listening" is when the first connection was accepted (code loaded, server up); the rest is the first request (Firestore client start-up, first connection, route code). CPU is the process’s user+system time at the first response (less sensitive to other load than wall time). Peak memory is VmHWM just after the first response. The headline ratio is `GET /kiosk/{id}`: its answer includes `openNow`, so that route evaluates the kiosk’s opening hours (a plain weekly schedule, read without the opening_hours library) in its time zone (a time-zone formatter, ICU data); `GET /user/{id}` needs no route-specific work, so it shows what the rest of the service costs a cold instance.',
    '',
  );
  /**
   * @param {string} label
   * @param {Results['cold'][number]['api']} instance
   */
  const instanceRow = (label, instance) => [
    label,
    fmtMs(instance.firstResponseMs),
    fmtMs(instance.listenMs),
    fmtMs(instance.firstResponseMs - instance.listenMs),
    fmtMs(instance.cpuMs),
    fmtMb(instance.hwmKb),
    instance.samplesMs.join(', '),
  ];
  const coldRows = (/** @type {Results['cold']} */ rows) =>
    rows.flatMap((row) => [
      instanceRow(`${row.request}: api`, row.api),
      instanceRow(`${row.request}: floor`, row.floor),
      [
        `**${row.request}: api ÷ floor**`,
        within(row.ratio, TARGETS.coldStartRatio)
          ? `**${fmtRatio(row.ratio)}**`
          : `**${fmtRatio(row.ratio)} (target ${TARGETS.coldStartRatio})**`,
        fmtRatio(row.api.listenMs / row.floor.listenMs),
        fmtRatio((row.api.firstResponseMs - row.api.listenMs) / (row.floor.firstResponseMs - row.floor.listenMs)),
        fmtRatio(row.api.cpuMs / row.floor.cpuMs),
        fmtRatio(row.api.hwmKb / row.floor.hwmKb),
        '',
      ],
    ]);
  p(
    table(
      [
        'Instance',
        'First response, ms (median)',
        'Listening, ms',
        'First request, ms',
        'CPU, ms',
        'Peak memory, MiB',
        'All runs, ms',
      ],
      coldRows(cold),
    ),
    '',
  );
  p(
    `Target ≤ ${TARGETS.coldStartRatio}×: ${cold.map((row) => `${row.request} ${verdict(within(row.ratio, TARGETS.coldStartRatio))}`).join(', ')}.`,
    '',
  );
  p(...coldStartGaps(cold, results.firstUse), '');
}
