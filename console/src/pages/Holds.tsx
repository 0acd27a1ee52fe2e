import { useState } from 'preact/hooks';
import { api } from '../api';
import type { Column } from '../components/DataTable';
import { ConfirmDialog, useConfirm } from '../components/Dialog';
import { TextField } from '../components/Field';
import { OpenOrAllTable, useOpenOrAll } from '../components/OpenOrAll';
import { Page } from '../components/Page';
import { capitalized, formatDateTime, formatNumber } from '../format';
import type { Hold } from '../types';

type Decision = { hold: Hold; verb: 'release' | 'reject' };

/** The review queue (contract §17): deposits whose points wait, newest first; release or reject with a reason. */
export default function Holds() {
  const [reason, setReason] = useState('');
  const decide = useConfirm<Decision>();
  const list = useOpenOrAll<Hold>('holds');
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
              Release <span class="visually-hidden">{hold.transactionId}</span>
            </button>
            <button type="button" class="danger" onClick={() => ask(hold, 'reject')}>
              Reject <span class="visually-hidden">{hold.transactionId}</span>
            </button>
          </div>
        ) : (
          `${capitalized(hold.resolution)}${hold.reason ? `: ${hold.reason}` : ''}`
        ),
    },
  ];

  return (
    <Page title="Holds">
      <OpenOrAllTable
        list={list}
        hints={{
          open: 'Deposits whose points wait for a review, newest first: release credits them, reject never does.',
          all: 'Every hold, open or decided, newest first.',
        }}
        columns={columns}
        rowKey="transactionId"
      >
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
          onDone={list.pages.first}
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
      </OpenOrAllTable>
    </Page>
  );
}
