// The load test's offline phase: kiosk simulators journal days of deposits, then upload them (docs/operations.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backoffRetries, faultyTransport, pause } from '../../kiosk-simulator/client.ts';
import { JournalFile, isOverloaded } from '../../kiosk-simulator/journal.ts';
import { SimulatedKiosk, randomItems } from '../../kiosk-simulator/simulator.ts';
import { AnswersByKey, randomInt } from './books.mjs';
import { phase } from './bursts.mjs';

const DAY_MS = 86_400_000;
/** Of the batch requests, this share is dropped before it is sent, and as many lose their answer. */
const FAULT_RATE = 0.15;
/** Of the deposits, this share is sent again alone once the backlog is uploaded. */
const SINGLE_RESEND_RATE = 0.1;

export const offline = phase('offline', {
  intro: '{offlineKiosks} kiosks upload {offlineDeposits} deposits each',
  async work(run) {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-loadtest-journals-'));
    const { offlineKiosks: kiosks, options } = run;
    const byKey = new AnswersByKey();
    const tally = {
      batchRequests: 0,
      overlappingBatches: 0,
      singleResends: 0,
      replayedAnswers: 0,
      retries: 0,
      dropped: 0,
      answersLost: 0,
      leftInJournals: 0,
      /** Items of a batch answered 5xx but 503 `overloaded` (the batch itself 200): the service failed them. */
      itemServerErrors: 0,
      /** Items answered 503 `overloaded`: nothing written; sent again after Retry-After. */
      itemsOverloaded: 0,
    };

    /** Resolves with the seconds from back online to an empty journal. @param {{ id: string, apiKey: string }} kiosk */
    const offlineKiosk = async ({ id, apiKey }) => {
      const journal = JournalFile.open(join(dir, `${id}.json`), id);
      const batchUrl = `${run.api}/kiosk/transactions/batch`;
      const transport = faultyTransport((url) => {
        if (url !== batchUrl) return undefined;
        tally.batchRequests += 1;
        const roll = Math.random();
        return roll < FAULT_RATE ? 'drop' : roll < 2 * FAULT_RATE ? 'lose-answer' : undefined;
      });
      const simulated = new SimulatedKiosk({
        api: run.api,
        apiKey,
        journal,
        transport,
        // Blind and quick: a dropped or lost batch goes again within a second or two.
        policy: backoffRetries({ attempts: 12, firstMs: 200, capMs: 2_000 }),
        onResponse: run.ledger.response,
        onEvent: (event) => {
          if (event.kind === 'retry') tally.retries += 1;
          if (event.kind !== 'answer') return;
          if (isOverloaded(event.answer)) tally.itemsOverloaded += 1;
          else if (event.answer.status >= 500) tally.itemServerErrors += 1;
          const transaction = /** @type {import('./books.mjs').Transaction | undefined} */ (event.answer.transaction);
          if (!transaction) return;
          run.ledger.award(transaction);
          if (event.answer.replayed) tally.replayedAnswers += 1;
          byKey.add(event.deposit.idempotencyKey, transaction.id);
        },
      });
      try {
        simulated.setConnected(false);
        // Offline: the deposits of the last `days` days, oldest first, journaled only.
        const [now, deposits] = [Date.now(), options.offlineDeposits];
        const span = options.offlineDays * DAY_MS - 10 * 60_000;
        for (let i = 0; i < deposits; i++) {
          const occurredAt = new Date(now - span + (i * span) / deposits).toISOString();
          simulated.record({ userId: run.users[randomInt(run.users.length)], ...randomItems(), occurredAt });
        }
        const backlog = [...simulated.journal.pending];

        // Back online: status, then the backlog; beside it a batch overlapping two of the flush's batches.
        const back = performance.now();
        simulated.setConnected(true);
        await simulated.reportStatus({ status: 'available' });
        const overlap = backlog.slice(Math.floor(backlog.length / 2) - 25, Math.floor(backlog.length / 2) + 75);
        // A flush stops early when a batch got no answer after all its retries: at most 10 until the journal is empty.
        const flushUntilEmpty = async () => {
          for (let round = 0; round < 10 && simulated.journal.pending.length > 0; round++) await simulated.flush();
        };
        await Promise.all([
          flushUntilEmpty(),
          pause(randomInt(300)).then(() => {
            tally.overlappingBatches += 1;
            return simulated.uploadBatch(overlap);
          }),
        ]);
        const uploadSeconds = (performance.now() - back) / 1000;

        // Some deposits sent again alone, as a kiosk unsure of an answer would: each a replay.
        const resends = backlog.filter(() => Math.random() < SINGLE_RESEND_RATE);
        for (const deposit of resends) await simulated.sendSingle(deposit);
        tally.singleResends += resends.length;
        tally.dropped += transport.injected.drop;
        tally.answersLost += transport.injected['lose-answer'];
        tally.leftInJournals += simulated.journal.pending.length + simulated.journal.rejected.length;
        return uploadSeconds;
      } finally {
        journal.close();
      }
    };

    try {
      const perKiosk = await Promise.all(kiosks.map(offlineKiosk));
      return {
        kiosks: kiosks.length,
        deposits: kiosks.length * options.offlineDeposits,
        days: options.offlineDays,
        ...tally,
        awarded: byKey.answered,
        doubled: byKey.doubled,
        uploadSeconds: Math.max(...perKiosk),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
