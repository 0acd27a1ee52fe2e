// @ts-check
// What the kiosk simulator prints: one line per event, as an operator follows a
// kiosk, and the tallies its summary is made of.
import { renderUnicodeCompact } from 'uqr';
import { isOverloaded } from './journal.ts';
import { countAnswer, emptyOutcome } from './simulator.ts';

/**
 * @typedef {import('./simulator.ts').KioskEvent} KioskEvent
 * @typedef {import('./journal.ts').Deposit} Deposit
 */

const clock = () => new Date().toISOString().slice(11, 23);
const items = (/** @type {Deposit} */ d) =>
  `${d.userId ?? 'anonymous'} ${d.plasticCount} plastic ${d.metalCount} metal`;

/**
 * A claim code as the kiosk shows it (§18): in groups of four, as domain/claimCode.ts's
 * displayedClaimCode writes it, until when, and with `qr` its QR code, for the app to scan.
 * @param {{ code: string, expiresAt: string }} claim
 * @param {boolean} qr
 */
export function claimScreen({ code, expiresAt }, qr) {
  const shown = code.match(/.{1,4}/g)?.join('-') ?? code;
  const text = `claim code ${shown}: claim your points in the app until ${expiresAt.slice(0, 10)}`;
  return qr ? [text, renderUnicodeCompact(code, { border: 1 })] : [text];
}
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/**
 * A printer of the simulator's events (`onEvent`), one line each on `write`, and
 * the tallies of what happened (`tally`); with `qr`, an anonymous deposit's claim
 * code is printed with its QR code.
 * @param {(line: string) => void} [write]
 * @param {{ qr?: boolean }} [options]
 */
export function createPrinter(write = (line) => console.log(line), { qr = false } = {}) {
  const tally = {
    recorded: 0,
    buffered: 0,
    sentAlone: 0,
    ...emptyOutcome(),
    batches: 0,
    retries: 0,
    statusReports: 0,
    statusFailed: 0,
  };
  const line = (/** @type {string} */ text) => write(`${clock()} ${text}`);

  /** @param {KioskEvent} event */
  /** A transaction's points by where they came from, e.g. " (base 70 + Double points 70)", when a promotion gave some. */
  const promoted = (transaction) => transaction?.breakdown?.some((entry) => entry.source === 'promotion') ?? false;
  const why = (transaction) =>
    promoted(transaction)
      ? ` (${transaction.breakdown.map((entry) => `${entry.name ?? entry.source} ${entry.points}`).join(' + ')})`
      : '';

  function onEvent(event) {
    switch (event.kind) {
      case 'recorded':
        tally.recorded += 1;
        if (!event.connected) {
          tally.buffered += 1;
          line(
            `buffered ${event.deposit.idempotencyKey}: ${items(event.deposit)}, occurred ${event.deposit.occurredAt}`,
          );
        }
        return;
      case 'answer': {
        const { deposit, answer, verdict, via } = event;
        if (via === 'single') tally.sentAlone += 1;
        countAnswer(tally, answer, verdict);
        // A batch is one line (below); of its items only those not accepted, given a promotion or a claim code get one.
        const told = promoted(answer.transaction) || answer.transaction?.claim;
        if (via === 'batch' && verdict === 'accepted' && !told) return;
        const what =
          verdict === 'accepted'
            ? `${answer.replayed ? 'replayed' : 'awarded'} ${answer.transaction?.pointsEarned ?? '?'} points${why(answer.transaction)}${answer.transaction?.capped ? ' (capped)' : ''}, transaction ${answer.transaction?.id}`
            : `${answer.status}${answer.code ? ` ${answer.code}` : ''}${answer.error ? `: ${answer.error}` : ''} (${verdict === 'rejected' ? 'refused for good' : isOverloaded(answer) ? 'the service is overloaded: sent again after its Retry-After' : 'kept for the next upload'})`;
        line(`${via === 'single' ? 'deposit' : '  item'} ${deposit.idempotencyKey}: ${items(deposit)} → ${what}`);
        if (verdict === 'accepted' && answer.transaction?.claim) {
          for (const shown of claimScreen(answer.transaction.claim, qr)) write(shown);
        }
        return;
      }
      case 'unanswered':
        line(`no answer for ${event.deposit.idempotencyKey}: kept for the next upload (${event.reason})`);
        return;
      case 'retry':
        tally.retries += 1;
        line(
          `retry ${event.what}: ${event.reason}; sending again in ${seconds(event.pauseMs)} (attempt ${event.attempt + 1})`,
        );
        return;
      case 'batch': {
        tally.batches += 1;
        const { accepted, replayed, rejected, kept, overloaded, points } = event.outcome;
        line(
          `batch of ${event.items} → ${accepted} awarded (+${points} points), ${replayed} replayed, ${rejected} refused, ${kept} kept, ${overloaded} overloaded, in ${Math.round(event.ms)} ms`,
        );
        return;
      }
      case 'batch-refused':
        line(`batch of ${event.items} refused as a whole: ${event.reason}; all ${event.items} kept`);
        return;
      case 'status': {
        tally.statusReports += 1;
        if (event.status !== 200) tally.statusFailed += 1;
        const { status, ...telemetry } = event.report;
        const extra = Object.keys(telemetry).length ? ` ${JSON.stringify(telemetry)}` : '';
        line(
          `status ${status}${extra} → ${event.status === 0 ? `no answer (${event.reason})` : (event.reason ?? event.status)}`,
        );
        return;
      }
      case 'connection':
        line(
          event.connected
            ? 'connection back: reporting status, then uploading the backlog'
            : 'connection lost: deposits are kept in the journal',
        );
        return;
    }
  }

  /**
   * The closing lines: what happened, and what the journal holds now.
   * @param {import('./journal.ts').JournalState} journal
   * @param {string} path
   */
  function summary(journal, path) {
    const t = tally;
    return [
      `summary: ${t.recorded} deposits taken (${t.buffered} while offline); ${t.accepted} awarded (+${t.points} points), ${t.replayed} replayed, ${t.rejected} refused, ${t.kept} answers that kept one pending, ${t.overloaded} answered 503 overloaded (sent again); ${t.sentAlone} answers to single sends, ${t.batches} batches; ${t.retries} retries; ${t.statusReports} status reports${t.statusFailed ? ` (${t.statusFailed} not 200)` : ''}`,
      describeJournal(journal, path),
    ];
  }

  return { onEvent, summary, tally };
}

/**
 * One line on the journal: where it is, what is pending (and the span of its
 * occurredAt), what was refused.
 * @param {import('./journal.ts').JournalState} journal
 * @param {string} path
 */
export function describeJournal(journal, path) {
  const times = journal.pending.map((deposit) => deposit.occurredAt).sort();
  const span = times.length ? ` (occurred ${times[0]} .. ${times[times.length - 1]})` : '';
  return `journal ${path}: ${journal.pending.length} pending${span}, ${journal.rejected.length} refused`;
}
