import { useState } from 'preact/hooks';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { LoadState } from '../components/Outcome';
import { Page } from '../components/Page';
import { Pager } from '../components/Pager';
import { formatDateTime } from '../format';
import { useCursorPages } from '../hooks';
import type { Alert } from '../types';

const PAGE_SIZE = 25;

const columns: Column<Alert>[] = [
  {
    header: 'Kiosk',
    cell: (alert) => <a href={`/kiosks/${encodeURIComponent(alert.kioskId)}`}>{alert.kioskId}</a>,
    rowHeader: true,
  },
  { header: 'Kind', cell: (alert) => alert.kind },
  { header: 'Opened', cell: (alert) => formatDateTime(alert.openedAt) },
  { header: 'Resolved', cell: (alert) => formatDateTime(alert.resolvedAt, 'Open') },
  { header: 'Details', cell: (alert) => alert.detail },
];

export default function Alerts() {
  const [all, setAll] = useState(false);
  const pages = useCursorPages(
    (cursor) =>
      api<{ alerts: Alert[]; nextCursor: string | null }>('/admin/alerts', {
        query: { state: all ? 'all' : 'open', limit: PAGE_SIZE, cursor },
      }).then((answer) => ({ items: answer.alerts, nextCursor: answer.nextCursor })),
    [all],
  );
  return (
    <Page title="Alerts">
      <div class="filters">
        <label class="check">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.currentTarget.checked)} />
          Show all alerts
        </label>
        <button type="button" class="secondary" disabled={pages.loading} onClick={pages.first}>
          Refresh
        </button>
      </div>
      <p class="hint">{all ? 'Every alert, open or resolved, newest first.' : 'The alerts open now, newest first.'}</p>
      <LoadState loading={pages.loading && !pages.data} error={pages.error} />
      {pages.data && (
        <DataTable
          caption="Alerts"
          columns={columns}
          rows={pages.data.items}
          rowKey={(alert) => alert.id}
          empty={all ? 'No alerts.' : 'No open alerts.'}
        />
      )}
      <Pager label="Alerts" {...pages} />
    </Page>
  );
}
