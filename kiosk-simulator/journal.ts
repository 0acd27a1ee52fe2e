// A kiosk's journal: every deposit it took, kept (as firmware keeps it in flash) from
// the moment the bottles are in the bin until the service's answer about it is final.
// A deposit is written to the journal before it is first sent, and leaves it only on
// a final answer: accepted (200, an award or a replay of one), or refused for a reason
// that sending it again can never change (then it moves to `rejected`, for an
// operator to settle). Anything else (no answer, a 5xx, a 429, 409 kiosk not
// available, a status this kiosk does not know) keeps it for the next upload, under
// the same Idempotency-Key, so a deposit is never lost and never counted twice. A
// 503 `overloaded` is the service protecting itself, nothing written: kept too, and
// sent again after its Retry-After (simulator.ts).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** POST /kiosk/transactions/batch takes at most this many items. */
export const MAX_BATCH_ITEMS = 100;

/** What the kiosk knows of a deposit when the bottles are in: who, how many, when. */
export interface DepositDraft {
  /** Null: the recycler did not identify; the answer carries a claim code (contract §18). */
  userId: string | null;
  plasticCount: number;
  metalCount: number;
  /** ISO 8601 (UTC), when the kiosk took it. */
  occurredAt: string;
}

/** A deposit in the journal, with the key it is sent under, always the same. */
export interface Deposit extends DepositDraft {
  kioskId: string;
  idempotencyKey: string;
}

/** What the service answered about one deposit: the single endpoint's answer, or a batch item's result. */
export interface DepositAnswer {
  status: number;
  transaction?: {
    id: string;
    pointsEarned: number;
    capped?: boolean;
    occurredAt?: string;
    /** Why these points (contract §16): the base, then each promotion's. */
    breakdown?: { source: string; name?: string; points: number }[];
    /** An anonymous deposit's: the code the kiosk shows (§18). */
    claim?: { code: string; expiresAt: string };
  };
  replayed?: boolean;
  error?: string;
  code?: string;
}

export interface RejectedDeposit {
  deposit: Deposit;
  status: number;
  code?: string;
  error?: string;
  /** When the answer came (ISO 8601). */
  at: string;
}

/** The journal file's content. */
export interface JournalState {
  format: 1;
  kioskId: string;
  /** Chosen when the journal was created: a new journal never reuses an old one's keys. */
  series: string;
  nextSequence: number;
  /** Oldest first: what has no final answer yet. */
  pending: Deposit[];
  rejected: RejectedDeposit[];
}

/**
 * The statuses that are final refusals of a deposit, and why sending it again cannot
 * change them. The CLI's help prints this table.
 */
export const FINAL_REFUSALS: Readonly<Record<number, string>> = {
  400: 'the deposit itself is invalid (a count, or occurredAt older than OFFLINE_MAX_DAYS)',
  403: 'the deposit names another kiosk than the key',
  404: 'the user (or the kiosk) does not exist',
  422: 'the key was used before with another deposit',
};

export type Verdict = 'accepted' | 'rejected' | 'kept';

/** accepted: 200; rejected: a final refusal (FINAL_REFUSALS); kept: anything else, to be sent again. */
export function verdictOf(status: number): Verdict {
  if (status === 200) return 'accepted';
  return Object.hasOwn(FINAL_REFUSALS, status) ? 'rejected' : 'kept';
}

/** The service gave the deposit up to protect itself (503 `overloaded`): nothing of it was written, send it again later. */
export const isOverloaded = (answer: Pick<DepositAnswer, 'status' | 'code'>): boolean =>
  answer.status === 503 && answer.code === 'overloaded';

export function emptyJournal(kioskId: string, now = new Date()): JournalState {
  return {
    format: 1,
    kioskId,
    series: now.getTime().toString(36),
    nextSequence: 1,
    pending: [],
    rejected: [],
  };
}

/** Appends the deposit under the journal's next key, `<kioskId>-<series>-<sequence>`. */
export function recordDeposit(state: JournalState, draft: DepositDraft): Deposit {
  const deposit: Deposit = {
    kioskId: state.kioskId,
    idempotencyKey: `${state.kioskId}-${state.series}-${state.nextSequence}`,
    userId: draft.userId,
    plasticCount: draft.plasticCount,
    metalCount: draft.metalCount,
    occurredAt: draft.occurredAt,
  };
  state.nextSequence += 1;
  state.pending.push(deposit);
  return deposit;
}

/** The oldest `max` pending deposits (at most MAX_BATCH_ITEMS) not in `skip`: the next batch to upload. */
export function nextBatch(
  state: JournalState,
  max = MAX_BATCH_ITEMS,
  skip: ReadonlySet<string> = new Set(),
): Deposit[] {
  const size = Math.max(1, Math.min(max, MAX_BATCH_ITEMS));
  return state.pending.filter((deposit) => !skip.has(deposit.idempotencyKey)).slice(0, size);
}

/**
 * Applies the answer about `deposit`: removes it when accepted, moves it to
 * `rejected` when refused for good, keeps it otherwise (also when it is no longer
 * pending: an overlapping upload settled it first). Returns the verdict.
 */
export function settleDeposit(state: JournalState, deposit: Deposit, answer: DepositAnswer, now = new Date()): Verdict {
  const verdict = verdictOf(answer.status);
  if (verdict === 'kept') return verdict;
  const index = state.pending.findIndex((pending) => pending.idempotencyKey === deposit.idempotencyKey);
  if (index < 0) return verdict;
  const [settled] = state.pending.splice(index, 1);
  if (verdict === 'rejected') {
    state.rejected.push({
      deposit: settled,
      status: answer.status,
      code: answer.code,
      error: answer.error,
      at: now.toISOString(),
    });
  }
  return verdict;
}

/**
 * The answers of a batch upload matched to its items: the i-th result answers the
 * i-th deposit when it carries that deposit's key. A result missing or carrying
 * another key is no answer (undefined): the deposit stays for the next upload.
 */
export function answersOfBatch(deposits: readonly Deposit[], results: unknown): (DepositAnswer | undefined)[] {
  const list = Array.isArray(results) ? results : [];
  return deposits.map((deposit, i) => {
    const result = list[i] as (DepositAnswer & { idempotencyKey?: unknown }) | undefined;
    return result && result.idempotencyKey === deposit.idempotencyKey && typeof result.status === 'number'
      ? result
      : undefined;
  });
}

/** Lock files this process holds, released when it exits however it exits. */
const heldLocks = new Set<string>();
let releasingOnExit = false;
function releaseHeldLocks(): void {
  for (const lockPath of heldLocks) {
    try {
      unlinkSync(lockPath);
    } catch {
      // already gone
    }
  }
  heldLocks.clear();
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The journal kept in a file, as firmware keeps it in flash: every change is written
 * before the kiosk acts on it (a new file, then renamed over the old one, so a crash
 * leaves the old or the new journal, never half of one). A lock file beside it keeps
 * a second simulator of the same kiosk from writing over this one's deposits; a lock
 * whose process is gone is taken over.
 */
export class JournalFile {
  readonly state: JournalState;
  readonly path: string;
  private readonly lockPath: string;

  private constructor(path: string, state: JournalState) {
    this.path = path;
    this.state = state;
    this.lockPath = `${path}.lock`;
  }

  /** Opens the journal of `kioskId` at `path` (creating it empty), locked for this process. */
  static open(path: string, kioskId: string): JournalFile {
    mkdirSync(dirname(path), { recursive: true });
    let state: JournalState;
    if (existsSync(path)) {
      state = JSON.parse(readFileSync(path, 'utf8')) as JournalState;
      if (state.format !== 1 || state.kioskId !== kioskId) {
        throw new Error(`${path} is not a journal of kiosk ${kioskId} (it names ${state.kioskId})`);
      }
    } else state = emptyJournal(kioskId);
    const journal = new JournalFile(path, state);
    journal.lock();
    journal.save();
    return journal;
  }

  private lock(): void {
    while (!this.tryLock()) {
      const holder = Number(readFileSync(this.lockPath, 'utf8'));
      if (holder === process.pid || (Number.isInteger(holder) && holder > 0 && isAlive(holder))) {
        throw new Error(`the journal ${this.path} is in use by process ${holder}`);
      }
      unlinkSync(this.lockPath);
    }
    heldLocks.add(this.lockPath);
    if (!releasingOnExit) process.once('exit', releaseHeldLocks);
    releasingOnExit = true;
  }

  /** Creates the lock file with this process's id; false when it exists already. */
  private tryLock(): boolean {
    let fd: number;
    try {
      fd = openSync(this.lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  }

  /** Writes the state as it is now. */
  save(): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, JSON.stringify(this.state, null, 1));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
  }

  /** Releases the lock; the file stays, with whatever is pending. */
  close(): void {
    if (!heldLocks.delete(this.lockPath)) return;
    try {
      unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}
