// A kiosk as its firmware behaves, for `npm run kiosk` (cli.mjs), the load
// test's offline phase, the bench and the tests: it reports its status (and, when
// asked, telemetry), takes deposits into its journal (journal.ts) before it
// sends them, sends each one alone with its Idempotency-Key while connected, keeps
// them while disconnected, and uploads the backlog in batches of at most 100 when
// connected again. Every request is sent again blindly, under the same keys, on a
// broken connection, a 5xx or a 429 (postAsKiosk in client.ts), after the
// answer's Retry-After when it gives one; batch items the service answered 503
// `overloaded` are sent again, under the same keys, after the batch's Retry-After.
// The journal lets a deposit go only on a final answer, so none is lost and none is
// counted twice.
import {
  answersOfBatch,
  isOverloaded,
  nextBatch,
  recordDeposit,
  settleDeposit,
  MAX_BATCH_ITEMS,
  type Deposit,
  type DepositAnswer,
  type DepositDraft,
  type JournalState,
  type Verdict,
} from './journal.ts';
import {
  backoffRetries,
  pause,
  postAsKiosk,
  retryAfterMs,
  type KioskAnswer,
  type RetryPolicy,
  type SendHooks,
  type Transport,
} from './client.ts';

/** What POST /kiosk/{id}/status takes; telemetry only where the service accepts it. */
export interface StatusReport {
  status: 'available' | 'maintenance' | 'offline';
  fillLevel?: { plastic?: number; metal?: number };
  firmwareVersion?: string;
  errorCode?: string | null;
}

/** What the kiosk does, one event at a time, for whoever prints or counts it. */
export type KioskEvent =
  | { kind: 'recorded'; deposit: Deposit; connected: boolean }
  | { kind: 'answer'; deposit: Deposit; answer: DepositAnswer; verdict: Verdict; via: 'single' | 'batch' }
  | { kind: 'unanswered'; deposit: Deposit; reason: string }
  | { kind: 'retry'; what: string; attempt: number; reason: string; pauseMs: number }
  | { kind: 'batch'; items: number; outcome: BatchOutcome; ms: number }
  | { kind: 'batch-refused'; items: number; status: number; reason: string }
  | { kind: 'status'; report: StatusReport; status: number; reason?: string }
  | { kind: 'connection'; connected: boolean };

/** A deposit as the kiosk takes it; `occurredAt` (ISO 8601) defaults to now. */
export type DepositInput = Omit<DepositDraft, 'occurredAt'> & { occurredAt?: string };

export interface BatchOutcome {
  accepted: number;
  replayed: number;
  rejected: number;
  /** Items kept for another upload: no answer, or a retryable one other than `overloaded`. */
  kept: number;
  /** Items the service answered 503 `overloaded` (nothing written; sent again after Retry-After). */
  overloaded: number;
  points: number;
}

/**
 * How long the kiosk waits before sending again items answered 503 `overloaded` when
 * the batch's answer carries no Retry-After: the service's own Retry-After for overload.
 */
export const OVERLOADED_ITEM_PAUSE_MS = 5_000;

export interface FlushSummary extends BatchOutcome {
  uploads: number;
  /** Why the flush stopped before the backlog was empty, if it did. */
  stopped?: string;
}

/** Where the journal lives: a file (JournalFile) or memory; `save` persists `state` as it is now. */
export interface JournalStore {
  state: JournalState;
  save(): void;
}

export interface KioskOptions {
  api: string;
  apiKey: string;
  journal: JournalStore;
  /** Default: exponential backoff from 0.5 s to 30 s, 8 attempts. */
  policy?: RetryPolicy;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  onEvent?: (event: KioskEvent) => void;
  /** Every HTTP response (status, body text, ms), retries included: for a load test's tallies. */
  onResponse?: SendHooks['onResponse'];
}

export const emptyOutcome = (): BatchOutcome => ({
  accepted: 0,
  replayed: 0,
  rejected: 0,
  kept: 0,
  overloaded: 0,
  points: 0,
});

/** Counts in `outcome` the answer about one deposit and the journal's verdict on it. */
export function countAnswer(outcome: BatchOutcome, answer: DepositAnswer, verdict: Verdict): void {
  if (verdict === 'accepted') {
    outcome[answer.replayed ? 'replayed' : 'accepted'] += 1;
    if (!answer.replayed) outcome.points += answer.transaction?.pointsEarned ?? 0;
  } else if (verdict === 'kept' && isOverloaded(answer)) outcome.overloaded += 1;
  else outcome[verdict] += 1;
}

const randomInt = (max: number) => Math.floor(Math.random() * max);

/** The items of a deposit as kiosks in use take them, for simulations: 0-5 plastic and 0-5 metal, never none. */
export function randomItems(): { plasticCount: number; metalCount: number } {
  const plasticCount = randomInt(6);
  return { plasticCount, metalCount: plasticCount === 0 ? 1 + randomInt(5) : randomInt(6) };
}
/** `409 kiosk-unavailable: Kiosk k1 is maintenance ...`, or the bare status when the body says nothing. */
const reasonOf = (answer: KioskAnswer): string =>
  typeof answer.body?.error === 'string'
    ? `${answer.status}${answer.body.code ? ` ${answer.body.code}` : ''}: ${answer.body.error}`
    : `${answer.status}`;

export class SimulatedKiosk {
  readonly kioskId: string;
  /** Whether the kiosk has a connection: without one it only records deposits. */
  connected = true;
  private readonly options: KioskOptions;
  private readonly policy: RetryPolicy;

  constructor(options: KioskOptions) {
    this.options = options;
    this.kioskId = options.journal.state.kioskId;
    this.policy = options.policy ?? backoffRetries({ attempts: 8 });
  }

  get journal(): JournalState {
    return this.options.journal.state;
  }

  setConnected(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    this.emit({ kind: 'connection', connected });
  }

  /** POST /kiosk/{id}/status; resolves with the HTTP status, 0 when no answer came. */
  async reportStatus(report: StatusReport): Promise<number> {
    try {
      const answer = await this.post(`/kiosk/${encodeURIComponent(this.kioskId)}/status`, report, 'status');
      this.emit({
        kind: 'status',
        report,
        status: answer.status,
        reason: answer.status === 200 ? undefined : reasonOf(answer),
      });
      return answer.status;
    } catch (error) {
      this.emit({ kind: 'status', report, status: 0, reason: String(error) });
      return 0;
    }
  }

  /** Takes a deposit into the journal (saved before anything else happens); `occurredAt` defaults to now. */
  record(draft: DepositInput): Deposit {
    const deposit = recordDeposit(this.journal, { ...draft, occurredAt: draft.occurredAt ?? new Date().toISOString() });
    this.options.journal.save();
    this.emit({ kind: 'recorded', deposit, connected: this.connected });
    return deposit;
  }

  /**
   * Takes a deposit into the journal and, when connected, sends it alone. Resolves
   * with the deposit and, if it was sent, the verdict on it ('kept' also when no
   * answer came: it waits in the journal for the next flush).
   */
  async deposit(draft: DepositInput): Promise<{ deposit: Deposit; verdict?: Verdict }> {
    const deposit = this.record(draft);
    if (!this.connected) return { deposit };
    return { deposit, verdict: await this.sendSingle(deposit) };
  }

  /** POST /kiosk/transaction of one journal deposit with its key; the answer is settled in the journal. */
  async sendSingle(deposit: Deposit): Promise<Verdict> {
    const { idempotencyKey, ...body } = deposit;
    let answer: KioskAnswer;
    try {
      answer = await this.post('/kiosk/transaction', body, `deposit ${idempotencyKey}`, idempotencyKey);
    } catch (error) {
      this.emit({ kind: 'unanswered', deposit, reason: String(error) });
      return 'kept';
    }
    const result: DepositAnswer =
      answer.status === 200
        ? {
            status: 200,
            transaction: answer.body?.transaction,
            replayed: answer.headers?.get('idempotent-replayed') === 'true',
          }
        : { status: answer.status, error: answer.body?.error, code: answer.body?.code };
    return this.settle([[deposit, result]], 'single').verdicts[0];
  }

  /**
   * POST /kiosk/transactions/batch of `deposits` (1-100 journal deposits); each
   * result is settled in the journal. Resolves with what became of them, or, when the
   * batch as a whole got no answer or was refused, with the status (0: no answer)
   * and nothing settled. `overloaded` lists the items answered 503 `overloaded`, and
   * `retryAfterMs` says when to send them again (the answer's Retry-After).
   */
  async uploadBatch(deposits: readonly Deposit[]): Promise<{
    status: number;
    outcome: BatchOutcome;
    reason?: string;
    overloaded?: Deposit[];
    retryAfterMs?: number;
  }> {
    const started = performance.now();
    const transactions = deposits.map(({ kioskId, userId, plasticCount, metalCount, occurredAt, idempotencyKey }) => ({
      kioskId,
      userId,
      plasticCount,
      metalCount,
      occurredAt,
      idempotencyKey,
    }));
    let answer: KioskAnswer;
    try {
      answer = await this.post('/kiosk/transactions/batch', { transactions }, `batch of ${deposits.length}`);
    } catch (error) {
      for (const deposit of deposits) this.emit({ kind: 'unanswered', deposit, reason: String(error) });
      return { status: 0, outcome: { ...emptyOutcome(), kept: deposits.length }, reason: String(error) };
    }
    if (answer.status !== 200) {
      const reason = reasonOf(answer);
      this.emit({ kind: 'batch-refused', items: deposits.length, status: answer.status, reason });
      return { status: answer.status, outcome: { ...emptyOutcome(), kept: deposits.length }, reason };
    }
    const answers = answersOfBatch(deposits, answer.body?.results);
    const { outcome } = this.settle(
      deposits.map((deposit, i) => [deposit, answers[i] ?? { status: 0, error: 'no result for this item' }]),
      'batch',
    );
    this.emit({ kind: 'batch', items: deposits.length, outcome, ms: performance.now() - started });
    const overloaded = deposits.filter((_, i) => answers[i] !== undefined && isOverloaded(answers[i]));
    const retryAfter = retryAfterMs(answer.headers?.get('retry-after') ?? null) ?? OVERLOADED_ITEM_PAUSE_MS;
    return { status: 200, outcome, overloaded, retryAfterMs: retryAfter };
  }

  /**
   * Uploads the backlog, oldest first, in batches of `batchSize` (at most 100), one
   * batch at a time; every pending deposit is sent once per flush, but for items the
   * service answered 503 `overloaded`: those are sent again (in the next batch, first)
   * after the answer's Retry-After, as many times as the policy's attempts, then wait
   * for the next flush. A batch too large for the service (413) is split in halves.
   * Stops early when the service refuses a batch as a whole (a revoked key, say) or
   * it got no answer after every retry: nothing is lost, the rest waits for the next
   * flush.
   */
  async flush(batchSize = MAX_BATCH_ITEMS): Promise<FlushSummary> {
    const summary: FlushSummary = { uploads: 0, ...emptyOutcome() };
    const tried = new Set<string>();
    const overloadedTimes = new Map<string, number>();
    let size = Math.min(batchSize, MAX_BATCH_ITEMS);
    let pauseFirstMs = 0;
    for (;;) {
      const batch = nextBatch(this.journal, size, tried);
      if (batch.length === 0) return summary;
      if (pauseFirstMs > 0) await (this.options.sleep ?? pause)(pauseFirstMs);
      summary.uploads += 1;
      const { status, outcome, reason, overloaded = [], retryAfterMs = 0 } = await this.uploadBatch(batch);
      if (status === 413 && batch.length > 1) {
        size = Math.ceil(batch.length / 2);
        continue;
      }
      if (status !== 200) return { ...summary, kept: this.journal.pending.length, stopped: reason };
      const sendAgain = new Set<string>();
      for (const { idempotencyKey } of overloaded) {
        const times = (overloadedTimes.get(idempotencyKey) ?? 0) + 1;
        overloadedTimes.set(idempotencyKey, times);
        if (times < this.policy.attempts) sendAgain.add(idempotencyKey);
      }
      for (const deposit of batch) if (!sendAgain.has(deposit.idempotencyKey)) tried.add(deposit.idempotencyKey);
      pauseFirstMs = sendAgain.size > 0 ? retryAfterMs : 0;
      if (sendAgain.size > 0) {
        const attempt = Math.max(...[...sendAgain].map((key) => overloadedTimes.get(key)!));
        const what = `${sendAgain.size} batch items`;
        this.emit({ kind: 'retry', what, attempt, reason: 'answered 503 overloaded', pauseMs: pauseFirstMs });
      }
      for (const key of Object.keys(outcome) as (keyof BatchOutcome)[]) summary[key] += outcome[key];
    }
  }

  private settle(pairs: [Deposit, DepositAnswer][], via: 'single' | 'batch') {
    const outcome = emptyOutcome();
    const verdicts = pairs.map(([deposit, answer]) => {
      const verdict = settleDeposit(this.journal, deposit, answer);
      countAnswer(outcome, answer, verdict);
      return verdict;
    });
    this.options.journal.save();
    pairs.forEach(([deposit, answer], i) => this.emit({ kind: 'answer', deposit, answer, verdict: verdicts[i], via }));
    return { outcome, verdicts };
  }

  private post(path: string, body: unknown, what: string, idempotencyKey?: string): Promise<KioskAnswer> {
    const hooks: SendHooks = {
      transport: this.options.transport,
      sleep: this.options.sleep,
      onResponse: this.options.onResponse,
      onRetry: (attempt, reason, pauseMs) => this.emit({ kind: 'retry', what, attempt, reason, pauseMs }),
    };
    return postAsKiosk(
      this.options.api,
      path,
      { apiKey: this.options.apiKey, idempotencyKey, body },
      this.policy,
      hooks,
    );
  }

  private emit(event: KioskEvent): void {
    this.options.onEvent?.(event);
  }
}
