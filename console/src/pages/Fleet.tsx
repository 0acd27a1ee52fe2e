import { useState } from 'preact/hooks';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { KioskMap } from '../components/KioskMap';
import { LoadState } from '../components/Outcome';
import { Page } from '../components/Page';
import { formatDateTime, formatFill } from '../format';
import { useLoad } from '../hooks';
import { ALERT_KINDS, KIOSK_STATUSES, type AdminKiosk } from '../types';

const PAGE_SIZE = 25;

const kioskLink = (kiosk: AdminKiosk) => <a href={`/kiosks/${encodeURIComponent(kiosk.id)}`}>{kiosk.id}</a>;

const columns: Column<AdminKiosk>[] = [
  { header: 'Kiosk', cell: kioskLink, sortValue: (kiosk) => kiosk.id, rowHeader: true },
  { header: 'Name', cell: (kiosk) => kiosk.name, sortValue: (kiosk) => kiosk.name },
  { header: 'Status', cell: (kiosk) => kiosk.status, sortValue: (kiosk) => kiosk.status },
  {
    header: 'Online',
    cell: (kiosk) => (kiosk.online ? 'Online' : 'Offline'),
    sortValue: (kiosk) => (kiosk.online ? 1 : 0),
  },
  {
    header: 'Last seen',
    cell: (kiosk) => formatDateTime(kiosk.lastSeenAt),
    sortValue: (kiosk) => kiosk.lastSeenAt ?? '',
  },
  {
    header: 'Fill (plastic/metal)',
    cell: (kiosk) => formatFill(kiosk.fillLevel),
    sortValue: (kiosk) => Math.max(kiosk.fillLevel.plastic ?? -1, kiosk.fillLevel.metal ?? -1),
  },
  {
    header: 'Firmware',
    cell: (kiosk) => kiosk.firmwareVersion ?? '—',
    sortValue: (kiosk) => kiosk.firmwareVersion ?? '',
  },
  { header: 'Error', cell: (kiosk) => kiosk.errorCode ?? '—', sortValue: (kiosk) => kiosk.errorCode ?? '' },
  {
    header: 'Open alerts',
    cell: (kiosk) => kiosk.openAlerts.join(', ') || 'None',
    sortValue: (kiosk) => kiosk.openAlerts.length,
  },
];

/** The "Open alert" filter: any, with or without open alerts, or one kind. */
function alertFilter(filter: string): (kiosk: AdminKiosk) => boolean {
  if (filter === 'with') return (kiosk) => kiosk.openAlerts.length > 0;
  if (filter === 'without') return (kiosk) => kiosk.openAlerts.length === 0;
  if (filter) return (kiosk) => kiosk.openAlerts.includes(filter as AdminKiosk['openAlerts'][number]);
  return () => true;
}

export default function Fleet() {
  const fleet = useLoad(() => api<{ kiosks: AdminKiosk[] }>('/admin/kiosks').then((answer) => answer.kiosks), []);
  const [status, setStatus] = useState('');
  const [openAlert, setOpenAlert] = useState('');
  const hasAlert = alertFilter(openAlert);
  const kiosks = (fleet.data ?? []).filter((kiosk) => (!status || kiosk.status === status) && hasAlert(kiosk));

  return (
    <Page title="Fleet">
      <div class="filters">
        <div class="field">
          <label for="status-filter">Status</label>
          <select id="status-filter" value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
            <option value="">All</option>
            {KIOSK_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="alert-filter">Open alert</label>
          <select id="alert-filter" value={openAlert} onChange={(event) => setOpenAlert(event.currentTarget.value)}>
            <option value="">Any</option>
            <option value="with">With open alerts</option>
            <option value="without">Without open alerts</option>
            {ALERT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="secondary" disabled={fleet.loading} onClick={fleet.reload}>
          Refresh
        </button>
      </div>
      <LoadState loading={fleet.loading && !fleet.data} error={fleet.error} />
      {fleet.data && (
        <>
          <p>
            {kiosks.length} of {fleet.data.length} kiosks shown.
          </p>
          <DataTable
            caption="Kiosks"
            columns={columns}
            rows={kiosks}
            rowKey={(kiosk) => kiosk.id}
            pageSize={PAGE_SIZE}
            empty="No kiosk matches."
          />
          <KioskMap kiosks={kiosks} />
        </>
      )}
    </Page>
  );
}
