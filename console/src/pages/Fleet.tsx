import { useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { DataTable, PAGE_SIZE, type Column } from '../components/DataTable';
import { SelectField } from '../components/Field';
import { KioskMap } from '../components/KioskMap';
import { LoadState } from '../components/Outcome';
import { Page } from '../components/Page';
import { RefreshButton } from '../components/RefreshButton';
import { formatDateTime, formatFill } from '../format';
import { useLoad } from '../hooks';
import { ALERT_KINDS, KIOSK_STATUSES, type AdminKiosk } from '../types';

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
  // The same array until the list or a filter changes: the map is drawn again for each new one.
  const kiosks = useMemo(() => {
    const hasAlert = alertFilter(openAlert);
    return (fleet.data ?? []).filter((kiosk) => (!status || kiosk.status === status) && hasAlert(kiosk));
  }, [fleet.data, status, openAlert]);

  return (
    <Page title="Fleet">
      <div class="filters">
        <SelectField label="Status" emptyChoice="All" choices={KIOSK_STATUSES} value={status} onValue={setStatus} />
        <SelectField
          label="Open alert"
          emptyChoice="Any"
          choices={[
            { value: 'with', label: 'With open alerts' },
            { value: 'without', label: 'Without open alerts' },
            ...ALERT_KINDS,
          ]}
          value={openAlert}
          onValue={setOpenAlert}
        />
        <RefreshButton loading={fleet.loading} onRefresh={fleet.reload} />
      </div>
      <LoadState of={fleet} />
      {fleet.data && (
        <>
          <p>
            {kiosks.length} of {fleet.data.length} kiosks shown.
          </p>
          <DataTable
            caption="Kiosks"
            columns={columns}
            rows={kiosks}
            rowKey="id"
            pageSize={PAGE_SIZE}
            empty="No kiosk matches."
          />
          <KioskMap kiosks={kiosks} />
        </>
      )}
    </Page>
  );
}
