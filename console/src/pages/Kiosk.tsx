import { api } from '../api';
import { ActionButton } from '../components/Actions';
import { ApiKeys } from '../components/ApiKeys';
import { DayFigures } from '../components/DayFigures';
import { Details } from '../components/Details';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { addDays, formatDateTime, formatFill, formatNumber, utcDay } from '../format';
import { useAction, useLoad, type Loaded } from '../hooks';
import type { PageProps } from '../navigation';
import type { AdminKiosk, Alert, KioskDay } from '../types';

const DAYS = 30;

/** What the fleet knows of a kiosk, for its details. */
const kioskDetails = (kiosk: AdminKiosk, suspicious: Alert | undefined): [string, string][] => [
  ['Name', kiosk.name],
  ['Address', kiosk.address],
  ['Status', kiosk.status],
  ['Online', kiosk.online ? 'Online' : 'Offline'],
  ['Last seen', formatDateTime(kiosk.lastSeenAt)],
  ['Fill (plastic/metal)', formatFill(kiosk.fillLevel)],
  ['Firmware', kiosk.firmwareVersion ?? '—'],
  ['Error code', kiosk.errorCode ?? 'None'],
  // The fleet's alerts are the ones status reports keep; the suspicious one an operator resolves comes on its own.
  ['Open alerts', [...kiosk.openAlerts, ...(suspicious ? [suspicious.kind] : [])].join(', ') || 'None'],
  ['Location', `${kiosk.location.latitude}, ${kiosk.location.longitude}`],
  ['Opening hours', `${kiosk.openingHours} (${kiosk.timezone})`],
  ['Items collected', `${formatNumber(kiosk.plasticCount)} plastic, ${formatNumber(kiosk.metalCount)} metal`],
];

export default function Kiosk({ params }: PageProps) {
  const { kioskId } = params;
  const path = `/admin/kiosks/${encodeURIComponent(kioskId)}`;
  // The fleet view is the one with the telemetry and the open alerts.
  const kiosk = useLoad(
    () =>
      api<{ kiosks: AdminKiosk[] }>('/admin/kiosks').then((answer) =>
        answer.kiosks.find((each) => each.id === kioskId),
      ),
    [kioskId],
  );
  const suspicious = useLoad(
    () =>
      api<{ alerts: Alert[] }>('/admin/alerts', { query: { state: 'open', limit: 100 } }).then((answer) =>
        answer.alerts.find((each) => each.kioskId === kioskId && each.kind === 'suspicious'),
      ),
    [kioskId],
  );
  return (
    <Page title={`Kiosk ${kioskId}`}>
      <LoadState of={kiosk} />
      {!kiosk.loading && !kiosk.error && !kiosk.data && <p role="alert">No kiosk has the id {kioskId}.</p>}
      {kiosk.data && (
        <>
          <Details items={kioskDetails(kiosk.data, suspicious.data)} />
          <SuspiciousAlert alert={suspicious} />
          <ApiKeys
            path={path}
            keyOf={(answer) => answer.apiKey}
            storeWhere="on the kiosk"
            revokedMeans="the kiosk using it can no longer reach the API until it gets a new key"
          />
          <UnclaimedDeposits kioskId={kioskId} />
          <LastDays kioskId={kioskId} />
        </>
      )}
    </Page>
  );
}

/**
 * Trust (contract §17): the kiosk's open `suspicious` alert (past its throughput limit),
 * which stays open until an operator resolves it here.
 */
function SuspiciousAlert({ alert }: { alert: Loaded<Alert | undefined> }) {
  const resolve = useAction();
  if (!alert.data && resolve.outcome === undefined) return null;
  return (
    <section>
      <h2>Suspicious throughput</h2>
      {alert.data && (
        <>
          <p>
            {alert.data.detail} (since {formatDateTime(alert.data.openedAt)}). Review its holds on the{' '}
            <a href="/holds">Holds page</a>.
          </p>
          <div class="actions">
            <ActionButton
              action={resolve}
              run={async () => {
                await api(`/admin/alerts/${encodeURIComponent(alert.data!.id)}/resolve`, { method: 'POST' });
                alert.reload();
                return 'The suspicious alert is resolved: the next deposit past the limit opens a new one.';
              }}
            >
              Resolve suspicious alert
            </ActionButton>
          </div>
        </>
      )}
      <Outcome outcome={resolve.outcome} />
    </section>
  );
}
/** Deposits made here without a user whose points nobody has claimed yet (contract §18). */
function UnclaimedDeposits({ kioskId }: { kioskId: string }) {
  const unclaimed = useLoad(
    () =>
      api<{ unclaimed: number }>(`/admin/kiosks/${encodeURIComponent(kioskId)}/unclaimed`).then(
        (answer) => answer.unclaimed,
      ),
    [kioskId],
  );
  return (
    <section>
      <h2>Unclaimed deposits</h2>
      <LoadState of={unclaimed} />
      {unclaimed.data !== undefined && (
        <p>
          {unclaimed.data === 1
            ? '1 deposit made here without a user has not been claimed yet.'
            : `${formatNumber(unclaimed.data)} deposits made here without a user have not been claimed yet.`}{' '}
          Their items are counted; their points go to whoever claims their code.
        </p>
      )}
    </section>
  );
}

function LastDays({ kioskId }: { kioskId: string }) {
  const to = utcDay(new Date());
  const from = addDays(to, 1 - DAYS);
  const days = useLoad(
    () =>
      api<{ rows: KioskDay[] }>('/admin/reports/kiosk-days', { query: { kioskId, from, to } }).then(
        (answer) => answer.rows,
      ),
    [kioskId, from, to],
  );
  return (
    <section>
      <h2>Last 30 days</h2>
      <LoadState of={days} />
      {days.data && (
        <DayFigures caption="Last 30 days" rows={days.data} from={from} to={to} perKiosk={false} collapsed />
      )}
    </section>
  );
}
