import type { Column } from '../components/DataTable';
import { OpenOrAllTable, useOpenOrAll } from '../components/OpenOrAll';
import { Page } from '../components/Page';
import { formatDateTime } from '../format';
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
  const list = useOpenOrAll<Alert>('alerts');
  return (
    <Page title="Alerts">
      <OpenOrAllTable
        list={list}
        hints={{ open: 'The alerts open now, newest first.', all: 'Every alert, open or resolved, newest first.' }}
        columns={columns}
        rowKey="id"
      />
    </Page>
  );
}
