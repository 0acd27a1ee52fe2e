// @ts-check
// BENCHMARKS.md's sections 4c (a page of a user's history as it grows) and 4d (the
// ledger's writes per award), and the history's target, from sections/history.mjs and
// sections/award-writes.mjs.
import { fmtMs, fmtRatio, markdownTable as table } from './measure.mjs';
import { within } from './report-targets.mjs';

/** @typedef {import('./run.mjs').Results} Results */

/** A page's p50 with the longest history (first or last page) is at most this many times its p50 with the shortest. */
export const HISTORY_FLAT_TARGET = 1.2;

const sized = (/** @type {number} */ entries) => entries.toLocaleString('en-US');
const described = (/** @type {Results['history']['rows'][number]} */ row) =>
  `${sized(row.entries)} entries, ${row.page} page`;

/**
 * The history's target: a page flat as the history grows, at its start and at its end.
 * @param {Results} results
 */
export function historyTargets({ history }) {
  const [shortest, ...longer] = history.rows;
  return [
    {
      name: `A history page flat as the history grows: p50 of a page of ${history.limit} with ${sized(longer[0].entries)} entries (first and last page) ≤ ${HISTORY_FLAT_TARGET}× p50 with ${sized(shortest.entries)}`,
      measured: `${fmtRatio(history.ratio)}× (${longer.map((row) => `${row.page} page ${fmtMs(row.p50)}`).join(', ')} vs ${fmtMs(shortest.p50)} ms); entries read per page ${history.rows.map((row) => row.read).join(' vs ')}`,
      met: within(history.ratio, HISTORY_FLAT_TARGET),
    },
  ];
}

/**
 * Section 4c's text and table.
 * @param {Results} results
 */
export function historyParts({ history }) {
  const longest = history.rows[history.rows.length - 1];
  return [
    '## 4c. A page of a user’s history as the history grows',
    '',
    `\`GET /user/{id}/history?limit=${history.limit}\` with the user’s own ID token, on a warm instance of its own, for a user with ${sized(history.rows[0].entries)} entries and one with ${sized(longest.entries)} (earn entries written by the service’s builder in batches of 500): the first page of each, and the last page of the long history (the cursor the service hands out after its ${sized(longest.skipped)}th entry), all ${history.limit} entries long. The pages are measured in turn, ${history.rounds} rounds of ${history.requests} sequential requests each (c=1), the order rotating from round to round, as in section 4b; percentiles are over all of a page’s requests. Unlike 4b both users live in the bench’s project: the Auth emulator signs users in to the project it runs for only, so their tokens are valid on an instance of that project alone; the ledger therefore holds both histories whichever page is timed, and what differs between the rows is the user’s history alone. "Entries read" is what the page’s query returns (one more than the page, to know whether another follows), counted directly with the Admin SDK: the page starts at the cursor’s position in the index (user, time, id), never at an offset, so a page reads the same at any depth of any history. The Firestore floor of each page, its reads done directly with the Admin SDK (the user and, at once, the page’s query from the same position; history-floor.mjs), is timed in the same rotation from the bench process: on the emulator a query’s time grows with the whole collection it queries, whoever’s entries they are (the emulator filters by scanning the collection; deployed Firestore reads the index from the cursor on), and the ledger held ${sized(history.ledger)} entries here, so that floor, not the page, carries most of each p50, alike for every row.`,
    '',
    table(
      [
        'History',
        'Page',
        'After entries',
        'Entries shown',
        'Entries read',
        'Next page',
        'p50, ms',
        'p95, ms',
        'Firestore floor p50, ms',
        'p50 above the floor, ms',
        'Failed',
      ],
      history.rows.map((row) => [
        sized(row.entries),
        row.page,
        sized(row.skipped),
        row.shown,
        row.read,
        row.more ? 'yes' : 'no',
        fmtMs(row.p50),
        fmtMs(row.p95),
        fmtMs(row.floor.p50),
        fmtMs(row.p50 - row.floor.p50),
        row.failed,
      ]),
    ),
    '',
    `Slowest page of the long history ÷ the page of the short one (p50): ${fmtRatio(history.ratio)} (target ≤ ${HISTORY_FLAT_TARGET}; ${history.rows
      .slice(1)
      .map((row) => `${described(row)} ${fmtRatio(row.p50 / history.rows[0].p50)}`)
      .join(
        ', ',
      )}). The endpoint against its Firestore floor (the same user read and query done directly) is the row \`GET /user/{id}/history\` of section 2.`,
    '',
  ];
}

/**
 * Section 4d's text and table.
 * @param {Results} results
 */
export function awardWritesParts({ awardWrites }) {
  const added = awardWrites.commit - awardWrites.commitBefore;
  const sometimes = awardWrites.collections.filter(({ writes }) => Math.min(...writes) === 0);
  return [
    '## 4d. The ledger’s cost per award: Firestore writes',
    '',
    `${awardWrites.awards} single \`POST /kiosk/transaction\` requests, one after another, to an instance of a project of its own (${awardWrites.projectId}: the rewards config, 50 kiosks with keys, one user; background triggers do not run there). Around each request every document of the project, subcollections included, is listed with its update time: what the request created or changed is counted by collection, not assumed. The earn entry is the document in \`ledger\`; before the ledger an award’s commit held the rest, the transaction and the user, so the commit’s writes before the ledger are the count less the ledger’s. The Firestore trigger’s writes (kiosk counters and day, notification, push, the effects marker) are the same with or without the ledger: the entry is written in the award’s own commit, atomically with the balance.`,
    '',
    table(
      ['Collection', ...Array.from({ length: awardWrites.awards }, (_, i) => `Award ${i + 1}`)],
      [
        ...awardWrites.collections.map(({ name, writes }) => [`\`${name}\``, ...writes]),
        ['**All**', ...awardWrites.totals.map((total) => `**${total}**`)],
      ],
    ),
    '',
    `The award’s commit: ${awardWrites.commitBefore} writes before the ledger, ${awardWrites.commit} with it: +${added} write per award (+${((100 * added) / awardWrites.commitBefore).toFixed(0)}%), in the same single commit (no extra round trip; a batch writes one entry per item, in the commit of that user’s items).${sometimes.length ? ` Not the award’s commit: the writes in ${sometimes.map(({ name }) => `\`${name}\``).join(', ')} made by some requests only (a kiosk’s \`lastSeenAt\`, written by authentication at most once a minute per kiosk).` : ''}`,
    '',
  ];
}
