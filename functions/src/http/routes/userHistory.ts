import { historyPage, type LedgerEntryView } from '../../data/ledger';
import { userPagedListRoute } from '../userPagedList';

const exampleEntry: LedgerEntryView = {
  id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
  kind: 'earn',
  points: 140,
  balanceAfter: 1320,
  createdAt: '2026-11-23T09:30:02.118Z',
  transaction: {
    id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
    kioskId: 'berlin-alexanderplatz',
    plasticCount: 3,
    metalCount: 2,
    occurredAt: '2026-11-22T08:12:44.000Z',
    breakdown: [
      { source: 'base', points: 70 },
      { source: 'promotion', promotionId: 'weekend-double', name: 'Double points this weekend', points: 70 },
    ],
  },
};

/** GET /user/{userId}/history: where the points came from and went, newest first, a page at a time. */
export const userHistoryRoute = userPagedListRoute({
  segment: 'history',
  itemsKey: 'entries',
  itemsNoun: 'Entries',
  readPage: historyPage,
  itemSchema: 'LedgerEntry',
  example: exampleEntry,
  doc: {
    operationId: 'getUserHistory',
    summary: "A user's points history",
    description:
      'Every change of the balance, newest first: an `earn` entry per deposit, `redeem` and `refund` for ' +
      'rewards, `adjust` by operators (and the opening balance of an account older than the history). Page ' +
      'with `nextCursor` (null on the last page). Paging while new entries are added never skips or repeats an ' +
      'entry that existed when the first page was read (new ones appear on a fresh first page), and a page ' +
      'takes the same time however long the history is.',
    tag: 'Users',
  },
});
