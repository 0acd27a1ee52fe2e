import { useState } from 'preact/hooks';
import { api } from '../api';
import { CursorTable, PAGE_SIZE, type Column } from '../components/DataTable';
import { ConfirmDialog, useConfirm } from '../components/Dialog';
import { CheckField, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { RefreshButton } from '../components/RefreshButton';
import { formatDateTime, formatNumber } from '../format';
import { useCursorPages } from '../hooks';
import type { Hold } from '../types';

type Decision = { hold: Hold; verb: 'release' | 'reject' };

/** The review queue (contract §17): deposits whose points wait, newest first; release or reject with a reason. */
export default function Holds() {
  const [all, setAll] = useState(false);
  const [reason, setReason] = useState('');
  const decide = useConfirm<Decision>();
  const pages = useCursorPages(
    (cursor) =>
      api<{ holds: Hold[]; nextCursor: string | null }>('/admin/holds', {
        query: { state: all ? 'all' : 'open', limit: PAGE_SIZE, cursor },
      }).then((answer) => ({ items: answer.holds, nextCursor: answer.nextCursor })),
    [all],
  );
  const ask = (hold: Hold, verb: Decision['verb']) => {
    setReason('');
    decide.ask({ hold, verb });
  };

  const columns: Column<Hold>[] = [
    { header: 'Held', cell: (hold) => formatDateTime(hold.heldAt), rowHeader: true },
    {
      header: 'User',
      cell: (hold) => <a href={`/users/${encodeURIComponent(hold.userId)}`}>{hold.userId}</a>,
    },
    {
      header: 'Kiosk',
      cell: (hold) => <a href={`/kiosks/${encodeURIComponent(hold.kioskId)}`}>{hold.kioskId}</a>,
    },
    { header: 'Points', cell: (hold) => formatNumber(hold.points), numeric: true },
    { header: 'Reasons', cell: (hold) => hold.reasons.join(', ') },
    {
      header: 'Decision',
      cell: (hold) =>
        hold.resolution === null ? (
          <div class="actions">
            <button type="button" onClick={() => ask(hold, 'release')}>
              Release {hold.transactionId}
            </button>
            <button type="button" class="danger" onClick={() => ask(hold, 'reject')}>
              Reject {hold.transactionId}
            </button>
          </div>
        ) : (
          `${hold.resolution} (${hold.reason ?? ''})`
        ),
    },
  ];

  return (
    <Page title="Holds">
      <div class="filters">
        <CheckField label="Show all holds" checked={all} onChecked={setAll} />
        <RefreshButton loading={pages.loading} onRefresh={pages.first} />
      </div>
      <p class="hint">
        {all
          ? 'Every hold, open or decided, newest first.'
          : 'Deposits whose points wait for a review, newest first: release credits them, reject never does.'}
      </p>
      <ConfirmDialog
        confirm={decide}
        verb={decide.subject?.verb === 'reject' ? 'Reject' : 'Release'}
        noun="hold"
        act={async ({ hold, verb }) => {
          await api(`/admin/holds/${encodeURIComponent(hold.transactionId)}/${verb}`, {
            method: 'POST',
            body: { reason },
          });
          return verb === 'release'
            ? `Released: ${formatNumber(hold.points)} points credited to ${hold.userId}.`
            : `Rejected: the ${formatNumber(hold.points)} points of ${hold.userId} are never credited.`;
        }}
        onDone={pages.first}
      >
        {({ hold, verb }) => (
          <>
            <p>
              {verb === 'release'
                ? `${formatNumber(hold.points)} points are credited to ${hold.userId} now, and they are told.`
                : `The ${formatNumber(hold.points)} points of ${hold.userId} are never credited; they are told.`}
            </p>
            <TextField label="Reason" value={reason} maxLength={200} onValue={setReason} />
          </>
        )}
      </ConfirmDialog>
      <CursorTable
        caption="Holds"
        columns={columns}
        pages={pages}
        rowKey="transactionId"
        empty={all ? 'No holds.' : 'No open holds.'}
      />
    </Page>
  );
}
