/** A user's records, page by page (the user page): the points history and the redemptions, each cancellable. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { CursorTable, type Column } from './DataTable';
import { ConfirmDialog, useConfirm } from './Dialog';
import { TextField } from './Field';
import { formatDateTime, formatNumber, formatSigned } from '../format';
import type { CursorPages } from '../hooks';
import type { LedgerEntry, Redemption } from '../types';

function entryDetails(entry: LedgerEntry): string {
  if (entry.transaction) {
    const { kioskId, plasticCount, metalCount } = entry.transaction;
    return `Deposit at ${kioskId}: ${plasticCount} plastic, ${metalCount} metal`;
  }
  if (entry.redemption) return `${entry.kind === 'refund' ? 'Refund of' : 'Redeemed'} ${entry.redemption.rewardName}`;
  return entry.reason ?? '';
}

const historyColumns: Column<LedgerEntry>[] = [
  { header: 'When', cell: (entry) => formatDateTime(entry.createdAt), rowHeader: true },
  { header: 'Kind', cell: (entry) => entry.kind },
  { header: 'Points', cell: (entry) => formatSigned(entry.points), numeric: true },
  { header: 'Balance after', cell: (entry) => formatNumber(entry.balanceAfter), numeric: true },
  { header: 'Details', cell: entryDetails },
];

export function History({ pages }: { pages: CursorPages<LedgerEntry> }) {
  return (
    <section>
      <h2>History</h2>
      <CursorTable caption="History" columns={historyColumns} pages={pages} rowKey="id" empty="No history yet." />
    </section>
  );
}

const redemptionName = (redemption: Redemption): string => redemption.code ?? redemption.id;

export function Redemptions({ pages, onCancelled }: { pages: CursorPages<Redemption>; onCancelled: () => void }) {
  const cancel = useConfirm<Redemption>();
  const [reason, setReason] = useState('');

  const columns: Column<Redemption>[] = [
    { header: 'When', cell: (redemption) => formatDateTime(redemption.createdAt), rowHeader: true },
    { header: 'Reward', cell: (redemption) => redemption.rewardName },
    { header: 'Cost', cell: (redemption) => formatNumber(redemption.cost), numeric: true },
    { header: 'Code', cell: (redemption) => redemption.code ?? '—' },
    {
      header: 'Status',
      cell: (redemption) =>
        redemption.status === 'cancelled' && redemption.cancelReason
          ? `cancelled (${redemption.cancelReason})`
          : redemption.status,
    },
    {
      header: 'Action',
      cell: (redemption) =>
        redemption.status === 'issued' ? (
          <button
            type="button"
            class="danger"
            onClick={() => {
              setReason('');
              cancel.ask(redemption);
            }}
          >
            Cancel redemption {redemptionName(redemption)}
          </button>
        ) : null,
    },
  ];

  return (
    <section>
      <h2>Redemptions</h2>
      <ConfirmDialog
        confirm={cancel}
        verb="Cancel"
        noun="redemption"
        act={async (redemption) => {
          const answer = await api<{ newBalance: number }>(
            `/admin/redemptions/${encodeURIComponent(redemption.id)}/cancel`,
            { method: 'POST', body: { reason } },
          );
          return `Redemption ${redemptionName(redemption)} cancelled: ${formatNumber(redemption.cost)} points went back, the balance is now ${formatNumber(answer.newBalance)}.`;
        }}
        onDone={onCancelled}
      >
        {(redemption) => (
          <>
            <p>
              {redemption.rewardName} ({redemptionName(redemption)}): the {formatNumber(redemption.cost)} points go back
              to the user and the redemption is marked cancelled, with your reason.
            </p>
            <TextField label="Reason" value={reason} maxLength={200} onValue={setReason} />
          </>
        )}
      </ConfirmDialog>
      <CursorTable caption="Redemptions" columns={columns} pages={pages} rowKey="id" empty="No redemptions yet." />
    </section>
  );
}
