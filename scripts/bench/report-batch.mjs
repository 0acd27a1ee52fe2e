// @ts-check
// BENCHMARKS.md's section 3b (a kiosk's backlog: one batch against single
// submissions) and its targets, from sections/batch-upload.mjs's figures.
import { fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';

/** @typedef {import('./run.mjs').Results} Results */

/** The batch answers at least this many times sooner than the same deposits sent one at a time. */
export const BATCH_SPEEDUP_TARGET = 5;

/**
 * The batch's targets: its answer at least BATCH_SPEEDUP_TARGET× sooner than single
 * submissions one at a time, and no contention (no Firestore transaction retried, no
 * answer other than 200, no failed effect) while its effects complete.
 * @param {Results} results
 */
export function batchTargets({ batch }) {
  const [row] = batch.rows;
  const contention = row.retried + row.notOk + row.failedEffects;
  return [
    {
      name: `A backlog of ${batch.items} in one batch answers ≥ ${BATCH_SPEEDUP_TARGET}× sooner than as single submissions one at a time`,
      measured: `${fmtRatio(batch.answerSpeedup)}× (${fmtMs(row.answerMs)} vs ${fmtMs(batch.rows[1].answerMs)} ms); every effect complete ${fmtRatio(batch.effectsSpeedup)}× sooner (${fmtMs(row.effectsMs)} vs ${fmtMs(batch.rows[1].effectsMs)} ms)`,
      met: Number.isFinite(batch.answerSpeedup) && batch.answerSpeedup >= BATCH_SPEEDUP_TARGET,
    },
    {
      name: `The batch's effects complete with zero contention: no Firestore transaction retried, every answer 200, no failed effect`,
      measured: `${row.retried} retried, ${row.notOk} not 200, ${row.failedEffects} failed effects over ${batch.rounds} batch${batch.rounds === 1 ? '' : 'es'}; the kiosk's hot documents written by ${fmtMs(row.folds)} folds (median)`,
      met: contention === 0,
    },
  ];
}

/**
 * The section's text and table.
 * @param {Results} results
 */
export function batchParts({ batch }) {
  return [
    `## 3b. A kiosk's backlog: one batch against single submissions`,
    '',
    `A kiosk back online with ${batch.items} deposits of the last four days (20 users, every other one with a device token) uploads them to the warm instance of section 2: in one \`POST /kiosk/transactions/batch\`, and, for comparison, the same deposits (same users, counts and \`occurredAt\`, other Idempotency-Keys) as single \`POST /kiosk/transaction\` requests, one at a time (a kiosk without the batch endpoint, keeping its order) and 16 at a time; ${batch.rounds} round${batch.rounds === 1 ? '' : 's'}, the order of the three rotating, each waiting until the previous one's effects are complete. "Answer" is from the first request sent to the last answer received; "every effect complete" from the same start until every transaction has \`effects.completedAt\` and the kiosk's counters stand at the new sums (polled every 50 ms). The trigger runs in the functions emulator, which delivers the Firestore events one at a time, so the effects' time is mostly the emulator working through ${batch.items} events, whichever way they were recorded. Contention is what the functions record on the emulator (\`diagnostics\`, written beside the log events): \`transaction_retried\` is every Firestore transaction the functions ran again (contention or a lost answer), \`kiosk_fold_committed\` every fold writing the kiosk's hot documents (its counters and its daily figures: at most one write a second each, src/services/kioskFold.ts). Figures are medians over the rounds; the counts are sums.`,
    '',
    table(
      [
        'Upload',
        'Answer, ms',
        'Every effect complete, ms',
        'Not 200',
        'Transactions retried',
        'Folds (hot-document writes)',
        'Failed effects',
      ],
      batch.rows.map((row) => [
        row.mode,
        fmtMs(row.answerMs),
        fmtMs(row.effectsMs),
        row.notOk,
        row.retried,
        fmtMs(row.folds),
        row.failedEffects,
      ]),
    ),
    '',
    `The batch answered ${fmtRatio(batch.answerSpeedup)}× sooner than the single submissions one at a time (target ≥ ${BATCH_SPEEDUP_TARGET}×) and had every effect complete ${fmtRatio(batch.effectsSpeedup)}× sooner.`,
    '',
  ];
}
