// @ts-check
// `npm run kiosk -- run`: a kiosk in use. Deposits come at a steady rate from random
// users; each is written to the journal at once and, while connected, sent alone.
// Status reports go out every --status-every while connected (with a flush of any
// backlog). The connection is lost at --offline-after and found again --offline-for
// later: meanwhile deposits are only journaled (with --backdate, their occurredAt
// spread over that long before now, oldest first, as after days offline); on
// reconnect the kiosk reports its status and uploads the backlog. Requests go out one
// at a time, as on one connection; taking deposits never waits for them.
import { randomItems } from './simulator.ts';

/**
 * @typedef {import('./simulator.ts').SimulatedKiosk} SimulatedKiosk
 * @typedef {import('./simulator.ts').StatusReport} StatusReport
 * @typedef {{ users: string[], perSecond: number, durationMs: number, offlineAfterMs: number, offlineForMs: number,
 *   backdateMs: number, statusEveryMs: number, batch: number, telemetry?: { binSize: number, firmware: string } }} Scenario
 */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `scenario` on `kiosk` until its duration is over or `stop` is aborted; then
 * waits for what is in flight and, if connected, uploads what is left.
 * @param {SimulatedKiosk} kiosk
 * @param {Scenario} scenario
 * @param {AbortSignal} stop
 */
export async function runScenario(kiosk, scenario, stop) {
  const started = Date.now();
  const offlineFrom = scenario.offlineAfterMs;
  const offlineUntil = Math.min(offlineFrom + scenario.offlineForMs, scenario.durationMs);
  const items = { plastic: 0, metal: 0 };
  /** Requests go out one after the other. */
  let queue = Promise.resolve();
  const enqueue = (/** @type {() => Promise<unknown>} */ work) => {
    queue = queue.then(work).then(() => undefined);
  };

  /** @returns {StatusReport} */
  const statusReport = () => {
    if (!scenario.telemetry) return { status: 'available' };
    const percent = (/** @type {number} */ n) =>
      Math.min(100, Math.round((100 * n) / (scenario.telemetry?.binSize ?? 1)));
    return {
      status: 'available',
      fillLevel: { plastic: percent(items.plastic), metal: percent(items.metal) },
      firmwareVersion: scenario.telemetry.firmware,
    };
  };
  const reportAndFlush = () =>
    enqueue(async () => {
      if (!kiosk.connected) return;
      await kiosk.reportStatus(statusReport());
      if (kiosk.connected && kiosk.journal.pending.length) await kiosk.flush(scenario.batch);
    });

  /** occurredAt of a deposit taken at `elapsed` ms: now, or offline with --backdate, spread oldest first. */
  const occurredAt = (/** @type {number} */ elapsed, /** @type {boolean} */ connected) => {
    if (connected || scenario.backdateMs === 0) return new Date().toISOString();
    const progress = (elapsed - offlineFrom) / Math.max(1, offlineUntil - offlineFrom);
    return new Date(Date.now() - scenario.backdateMs * (1 - progress)).toISOString();
  };

  reportAndFlush();
  let nextStatus = scenario.statusEveryMs;
  const interval = 1000 / scenario.perSecond;
  for (let n = 0; !stop.aborted; n++) {
    const wait = started + n * interval - Date.now();
    if (wait > 0) await sleep(wait);
    const elapsed = Date.now() - started;
    if (elapsed >= scenario.durationMs || stop.aborted) break;
    const connected = !(elapsed >= offlineFrom && elapsed < offlineUntil);
    if (connected !== kiosk.connected) {
      kiosk.setConnected(connected);
      if (connected) {
        reportAndFlush();
        nextStatus = elapsed + scenario.statusEveryMs;
      }
    }
    if (connected && elapsed >= nextStatus) {
      reportAndFlush();
      nextStatus += scenario.statusEveryMs;
    }
    const { plasticCount, metalCount } = randomItems();
    items.plastic += plasticCount;
    items.metal += metalCount;
    const userId = scenario.users[Math.floor(Math.random() * scenario.users.length)];
    const deposit = kiosk.record({ userId, plasticCount, metalCount, occurredAt: occurredAt(elapsed, connected) });
    if (connected)
      enqueue(async () => {
        if (kiosk.connected && kiosk.journal.pending.includes(deposit)) await kiosk.sendSingle(deposit);
      });
  }
  await queue;
  if (kiosk.connected && kiosk.journal.pending.length) await kiosk.flush(scenario.batch);
}
