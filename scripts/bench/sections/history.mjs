// @ts-check
// Section 4c (judged): a page of GET /user/{id}/history as the history grows. Two
// users, one with 10 entries and one with 10,000 (the service's builders, batched
// writes), are asked for a page of 10 on a warm instance of their own: the first page
// of each, and the last page of the long one (the cursor after its 9,990th entry).
// The pages are measured in turn, round after round, like section 4b. Unlike 4b the
// sizes share the bench's project: the Auth emulator signs users in to the project it
// runs for only, so their ID tokens are valid on an instance of that project alone.
// The ledger then holds both histories for every page timed, and what differs is the
// user's history only. A page reached through an offset, or a history read whole,
// grows with it; one that starts at the cursor's position in the index
// (src/data/ledger.ts) stays flat. Each page's Firestore floor (the same reads done
// directly, history-floor.mjs) is timed in the same rotation: on the emulator the
// query's own time grows with the whole ledger collection, which the floor shows.
// Beside the latencies: the entries the page's query reads, counted directly.
import { idTokenFor } from '../../../functions/test/harness/auth.ts';
import { fleetUserWithHistory } from '../../lib/fleet.mjs';
import { db, requireFn } from '../endpoints.mjs';
import { measureInTurn, writeInBatches } from '../growth.mjs';
import { historyFloor, historyQuery } from '../history-floor.mjs';
import { API_SOURCE, startFunction, stopFunction, waitForSuccess } from '../host.mjs';
import { httpSender, keepAliveAgent, request } from '../measure.mjs';
import { warmApiEnv } from '../setup.mjs';

const { encodeCursor } = requireFn('./lib/domain/cursor.js');

/**
 * Where a page after the first `skipped` entries of `userId`'s history starts: the
 * cursor the service hands out with the page ending there, and that entry.
 * @param {string} userId
 * @param {number} skipped
 */
async function positionAfter(userId, skipped) {
  const [entry] = (
    await historyQuery(userId)
      .offset(skipped - 1)
      .limit(1)
      .get()
  ).docs;
  const { seconds, nanoseconds } = entry.get('createdAt');
  return { skipped, after: entry, cursor: encodeCursor({ seconds, nanoseconds, id: entry.id }) };
}

/** @param {import('../setup.mjs').Bench} bench */
export async function measureHistory(bench) {
  const { entries: sizes, limit, warmup, rounds, requests } = bench.plan.history;
  /** @type {{ userId: string, entries: number, headers: Record<string, string> }[]} */
  const users = [];
  for (const entries of sizes) {
    const started = Date.now();
    const userId = `bench-history-${bench.ctx.runId}-${entries}`;
    const history = { userId, name: `History of ${entries}`, entries, kioskId: bench.ctx.kiosks[0].id };
    await writeInBatches(db(), fleetUserWithHistory(db(), history));
    console.log(`  seeded a user with ${entries} entries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    users.push({ userId, entries, headers: { authorization: `Bearer ${await idTokenFor(userId)}` } });
  }
  const longest = users[users.length - 1];
  /** @type {Page[]} */
  const pages = [
    ...users.map((user) => ({ ...user, page: 'first', skipped: 0 })),
    { ...longest, page: 'last', ...(await positionAfter(longest.userId, longest.entries - limit)) },
  ];
  const instance = await startFunction({ source: API_SOURCE, env: warmApiEnv(bench), name: 'api-history' });
  const agent = keepAliveAgent(1);
  try {
    await waitForSuccess(instance, '/');
    const send = httpSender(instance.url, agent);
    /** @type {import('../endpoints.mjs').BenchRequest[]} */
    const requested = pages.map((page) => ({
      method: 'GET',
      path: `/user/${page.userId}/history?limit=${limit}${page.cursor ? `&cursor=${page.cursor}` : ''}`,
      headers: page.headers,
    }));
    /** @type {{ shown: number, more: boolean, read: number }[]} */
    const answered = [];
    for (const [i, page] of pages.entries())
      answered.push({
        ...(await pageAnswered(instance.url, requested[i], agent)),
        read: await entriesRead(page, limit),
      });
    const endpoints = requested.map((req) => () => send(req));
    const floors = pages.map((page) => async () => {
      await historyFloor(page.userId, limit, page.after);
      return { ok: true };
    });
    const measured = await measureInTurn([...endpoints, ...floors], { warmup, rounds, requests });
    const rows = pages.map(({ entries, page, skipped }, i) => ({
      entries,
      page,
      skipped,
      ...answered[i],
      ...measured[i],
      floor: measured[pages.length + i],
    }));
    for (const row of rows) {
      console.log(
        `  ${String(row.entries).padStart(6)} entries, ${row.page} page (after ${row.skipped}): ${row.shown} shown, ${row.read} read, more: ${row.more}  p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)} ms  floor p50 ${row.floor.p50.toFixed(1)} ms  failed ${row.failed}`,
      );
    }
    const ledger = (await db().collection('ledger').count().get()).data().count;
    const ratio = Math.max(...rows.slice(1).map((row) => row.p50)) / rows[0].p50;
    return { history: { rows, limit, rounds, requests, ratio, ledger } };
  } finally {
    agent.destroy();
    await stopFunction(instance);
  }
}

/**
 * What the page answers: how many entries, and whether a next page follows.
 * @param {string} url
 * @param {import('../endpoints.mjs').BenchRequest} req
 * @param {import('node:http').Agent} agent
 */
async function pageAnswered(url, req, agent) {
  const response = await request({ url: `${url}${req.path}`, headers: req.headers, agent });
  if (response.status !== 200) throw new Error(`GET ${req.path}: ${response.status} ${response.body}`);
  const { entries, nextCursor } = JSON.parse(response.body);
  return { shown: entries.length, more: nextCursor !== null };
}

/**
 * The documents the page's query returns (one more than the page, to know whether another follows).
 * @param {Page} page
 * @param {number} limit
 */
async function entriesRead(page, limit) {
  const query = page.after ? historyQuery(page.userId).startAfter(page.after) : historyQuery(page.userId);
  return (
    await query
      .limit(limit + 1)
      .select()
      .get()
  ).size;
}

/**
 * One page timed: whose, which, and where it starts.
 * @typedef {{ userId: string, entries: number, headers: Record<string, string>, page: string, skipped: number,
 *   cursor?: string, after?: import('firebase-admin/firestore').DocumentSnapshot }} Page
 */
