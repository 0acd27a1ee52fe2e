import { useState } from 'preact/hooks';
import { api } from '../api';
import { CursorTable, PAGE_SIZE, type Column } from '../components/DataTable';
import { CheckField } from '../components/Field';
import { Page } from '../components/Page';
import { RefreshButton } from '../components/RefreshButton';
import { formatDateTime } from '../format';
import { useCursorPages } from '../hooks';
import type { Alert } from '../types';

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
        <CheckField label="Show all alerts" checked={all} onChecked={setAll} />
        <RefreshButton loading={pages.loading} onRefresh={pages.first} />
      </div>
      <p class="hint">{all ? 'Every alert, open or resolved, newest first.' : 'The alerts open now, newest first.'}</p>
      <CursorTable
        caption="Alerts"
        columns={columns}
        pages={pages}
        rowKey="id"
        empty={all ? 'No alerts.' : 'No open alerts.'}
      />
    </Page>
  );
}
