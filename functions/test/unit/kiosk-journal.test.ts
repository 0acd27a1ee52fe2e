import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FINAL_REFUSALS,
  JournalFile,
  MAX_BATCH_ITEMS,
  answersOfBatch,
  emptyJournal,
  isOverloaded,
  nextBatch,
  recordDeposit,
  settleDeposit,
  verdictOf,
  type JournalState,
} from '../../../kiosk-simulator/journal';

const draft = (i: number) => ({
  userId: `user-${i % 3}`,
  plasticCount: 1 + (i % 4),
  metalCount: i % 2,
  occurredAt: new Date(Date.UTC(2026, 10, 20, 8, i)).toISOString(),
});

function journalWith(deposits: number): JournalState {
  const state = emptyJournal('kiosk-1', new Date(Date.UTC(2026, 10, 23)));
  for (let i = 0; i < deposits; i++) recordDeposit(state, draft(i));
  return state;
}

describe('the journal', () => {
  test('a deposit is recorded with its occurredAt under a key of its own, never reused', () => {
    const state = journalWith(3);
    expect(state.pending.map((deposit) => deposit.idempotencyKey)).toEqual([
      `kiosk-1-${state.series}-1`,
      `kiosk-1-${state.series}-2`,
      `kiosk-1-${state.series}-3`,
    ]);
    expect(state.pending[1]).toEqual({ kioskId: 'kiosk-1', idempotencyKey: `kiosk-1-${state.series}-2`, ...draft(1) });
    // A journal started later (the old file lost) starts another series: no key of the old one comes back.
    const later = emptyJournal('kiosk-1', new Date(Date.UTC(2026, 10, 24)));
    expect(recordDeposit(later, draft(0)).idempotencyKey).not.toBe(state.pending[0].idempotencyKey);
  });

  test('batches are the oldest pending deposits, at most 100, skipping those already tried', () => {
    const state = journalWith(250);
    expect(nextBatch(state)).toEqual(state.pending.slice(0, MAX_BATCH_ITEMS));
    expect(nextBatch(state, 500)).toHaveLength(MAX_BATCH_ITEMS);
    expect(nextBatch(state, 30)).toHaveLength(30);
    const tried = new Set(state.pending.slice(0, 200).map((deposit) => deposit.idempotencyKey));
    expect(nextBatch(state, 100, tried)).toEqual(state.pending.slice(200));
  });

  test('final answers: 200, and the refusals sending again cannot change; anything else keeps the deposit', () => {
    expect(verdictOf(200)).toBe('accepted');
    for (const status of [400, 403, 404, 422]) expect(verdictOf(status)).toBe('rejected');
    expect(Object.keys(FINAL_REFUSALS).map(Number)).toEqual([400, 403, 404, 422]);
    for (const status of [0, 401, 408, 409, 413, 429, 500, 502, 503, 504, 201, 418])
      expect(verdictOf(status)).toBe('kept');
  });

  test('503 overloaded (the service protecting itself, nothing written) keeps the deposit; only that code is overload', () => {
    const state = journalWith(1);
    const [deposit] = state.pending;
    const answer = { status: 503, error: 'The service is overloaded', code: 'overloaded' };
    expect([isOverloaded(answer), settleDeposit(state, deposit, answer)]).toEqual([true, 'kept']);
    expect(state.pending).toEqual([deposit]);
    expect(isOverloaded({ status: 503, code: 'kiosk-misconfigured' })).toBe(false);
    expect(isOverloaded({ status: 500, code: 'overloaded' })).toBe(false);
  });

  test('settling: accepted leaves, rejected moves to rejected with its reason, kept stays in place', () => {
    const state = journalWith(4);
    const [a, b, c, d] = state.pending;
    const at = new Date(Date.UTC(2026, 10, 23, 12));
    expect(settleDeposit(state, a, { status: 200, transaction: { id: 't1', pointsEarned: 20 } })).toBe('accepted');
    expect(settleDeposit(state, b, { status: 404, error: 'User user-1 not found', code: 'not-found' }, at)).toBe(
      'rejected',
    );
    expect(settleDeposit(state, c, { status: 503, error: 'down', code: 'kiosk-misconfigured' })).toBe('kept');
    expect(settleDeposit(state, d, { status: 409, code: 'kiosk-unavailable' })).toBe('kept');
    expect(state.pending).toEqual([c, d]);
    expect(state.rejected).toEqual([
      { deposit: b, status: 404, error: 'User user-1 not found', code: 'not-found', at: at.toISOString() },
    ]);
    // An answer about a deposit settled already (an overlapping upload) changes nothing.
    expect(settleDeposit(state, a, { status: 200 })).toBe('accepted');
    expect(settleDeposit(state, b, { status: 404 })).toBe('rejected');
    expect(state.pending).toEqual([c, d]);
    expect(state.rejected).toHaveLength(1);
  });

  test("a batch's results answer its items by position and key; a missing or foreign result is no answer", () => {
    const state = journalWith(4);
    const [a, b, c, d] = state.pending;
    const answers = answersOfBatch(state.pending, [
      { idempotencyKey: a.idempotencyKey, status: 200 },
      { idempotencyKey: 'someone-else', status: 200 },
      { idempotencyKey: c.idempotencyKey, status: 'x' },
    ]);
    expect(answers).toEqual([{ idempotencyKey: a.idempotencyKey, status: 200 }, undefined, undefined, undefined]);
    expect(answersOfBatch([b, d], undefined)).toEqual([undefined, undefined]);
  });
});

describe('the journal file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a restart finds the backlog as it was saved', () => {
    const path = join(dir, 'kiosk-1.json');
    const journal = JournalFile.open(path, 'kiosk-1');
    recordDeposit(journal.state, draft(0));
    recordDeposit(journal.state, draft(1));
    journal.save();
    journal.close();
    const reopened = JournalFile.open(path, 'kiosk-1');
    expect(reopened.state).toEqual(journal.state);
    expect(recordDeposit(reopened.state, draft(2)).idempotencyKey).toBe(`kiosk-1-${journal.state.series}-3`);
    reopened.close();
  });

  test('a save that died half-way leaves the journal as it was before', () => {
    const path = join(dir, 'kiosk-1.json');
    const journal = JournalFile.open(path, 'kiosk-1');
    recordDeposit(journal.state, draft(0));
    journal.save();
    journal.close();
    // What a crash during the next save leaves: a partial temporary file beside the journal.
    writeFileSync(`${path}.12345.tmp`, '{"format":1,"pend');
    const reopened = JournalFile.open(path, 'kiosk-1');
    expect(reopened.state.pending).toHaveLength(1);
    reopened.close();
  });

  test("one simulator per journal: a second one is refused while the first runs; a dead one's lock is taken over", () => {
    const path = join(dir, 'kiosk-1.json');
    const journal = JournalFile.open(path, 'kiosk-1');
    expect(() => JournalFile.open(path, 'kiosk-1')).toThrow(`in use by process ${process.pid}`);
    journal.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    // A process id no process has (above Linux's pid_max).
    writeFileSync(`${path}.lock`, '99999999');
    const taken = JournalFile.open(path, 'kiosk-1');
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.pid));
    taken.close();
  });

  test("another kiosk's journal is refused", () => {
    const path = join(dir, 'kiosk-1.json');
    JournalFile.open(path, 'kiosk-1').close();
    expect(() => JournalFile.open(path, 'kiosk-2')).toThrow('is not a journal of kiosk kiosk-2');
  });
});
