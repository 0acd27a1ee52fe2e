import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmDialog } from '../components/Dialog';
import { DataTable, type Column } from '../components/DataTable';
import { DayFigures } from '../components/DayFigures';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { addDays, formatDateTime, formatFill, formatNumber, utcDay } from '../format';
import { useAction, useLoad } from '../hooks';
import type { PageProps } from '../router';
import type { AdminKiosk, KioskDay, KioskKey } from '../types';

const DAYS = 30;

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
  return (
    <Page title={`Kiosk ${kioskId}`}>
      <LoadState loading={kiosk.loading && !kiosk.data} error={kiosk.error} />
      {!kiosk.loading && !kiosk.error && !kiosk.data && <p role="alert">No kiosk has the id {kioskId}.</p>}
      {kiosk.data && (
        <>
          <KioskDetails kiosk={kiosk.data} />
          <KioskKeys path={path} />
          <LastDays kioskId={kioskId} />
        </>
      )}
    </Page>
  );
}

function KioskDetails({ kiosk }: { kiosk: AdminKiosk }) {
  const details: [string, string][] = [
    ['Name', kiosk.name],
    ['Address', kiosk.address],
    ['Status', kiosk.status],
    ['Online', kiosk.online ? 'Online' : 'Offline'],
    ['Last seen', formatDateTime(kiosk.lastSeenAt)],
    ['Fill (plastic/metal)', formatFill(kiosk.fillLevel)],
    ['Firmware', kiosk.firmwareVersion ?? '—'],
    ['Error code', kiosk.errorCode ?? 'None'],
    ['Open alerts', kiosk.openAlerts.join(', ') || 'None'],
    ['Location', `${kiosk.location.latitude}, ${kiosk.location.longitude}`],
    ['Opening hours', `${kiosk.openingHours} (${kiosk.timezone})`],
    ['Items collected', `${formatNumber(kiosk.plasticCount)} plastic, ${formatNumber(kiosk.metalCount)} metal`],
  ];
  return (
    <dl class="details">
      {details.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

const keyName = (key: KioskKey): string => key.label || key.keyId.slice(0, 12);

function KioskKeys({ path }: { path: string }) {
  const keys = useLoad(() => api<{ keys: KioskKey[] }>(`${path}/keys`).then((answer) => answer.keys), [path]);
  const create = useAction();
  const revoke = useAction();
  const [label, setLabel] = useState('');
  const [newKey, setNewKey] = useState<{ apiKey: string; label: string } | undefined>();
  const [copied, setCopied] = useState<string | undefined>();
  const [revoking, setRevoking] = useState<KioskKey | undefined>();

  const columns: Column<KioskKey>[] = [
    { header: 'Label', cell: (key) => key.label || '(no label)', rowHeader: true },
    { header: 'Key id', cell: (key) => <code>{key.keyId.slice(0, 12)}…</code> },
    { header: 'Created', cell: (key) => formatDateTime(key.createdAt) },
    { header: 'Revoked', cell: (key) => (key.revokedAt ? formatDateTime(key.revokedAt) : 'Active') },
    {
      header: 'Action',
      cell: (key) =>
        key.revokedAt ? null : (
          <button type="button" class="danger" onClick={() => setRevoking(key)}>
            Revoke key {keyName(key)}
          </button>
        ),
    },
  ];

  return (
    <section>
      <h2>API keys</h2>
      <LoadState loading={keys.loading && !keys.data} error={keys.error} />
      {keys.data && (
        <DataTable
          caption="API keys"
          columns={columns}
          rows={keys.data}
          rowKey={(key) => key.keyId}
          empty="No keys yet."
        />
      )}
      <Outcome outcome={revoke.outcome} />
      <form
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          create.run(async () => {
            const answer = await api<{ keyId: string; apiKey: string }>(`${path}/keys`, {
              method: 'POST',
              body: { label },
            });
            setNewKey({ apiKey: answer.apiKey, label });
            setCopied(undefined);
            setLabel('');
            keys.reload();
            return `Key ${label || '(no label)'} created.`;
          });
        }}
      >
        <label for="key-label">Key label</label>
        <input id="key-label" value={label} maxLength={200} onInput={(event) => setLabel(event.currentTarget.value)} />
        <button type="submit" disabled={create.busy}>
          Create key
        </button>
        <Outcome outcome={create.outcome} />
      </form>
      {newKey && (
        <div class="key-once">
          <label for="new-key">New API key</label>
          <input
            id="new-key"
            readOnly
            value={newKey.apiKey}
            aria-describedby="new-key-note"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p id="new-key-note">Store it on the kiosk now: it will not be shown again.</p>
          <button
            type="button"
            class="secondary"
            onClick={() =>
              navigator.clipboard.writeText(newKey.apiKey).then(
                () => setCopied('Key copied.'),
                () => setCopied('The browser did not allow copying: select the key and copy it.'),
              )
            }
          >
            Copy key
          </button>
          {copied && <p role="status">{copied}</p>}
        </div>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        cancelLabel="Keep key"
        busy={revoke.busy}
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => {
          const key = revoking!;
          revoke
            .run(async () => {
              await api(`${path}/keys/${encodeURIComponent(key.keyId)}`, { method: 'DELETE' });
              return `Key ${keyName(key)} revoked: it no longer works.`;
            })
            .then(() => {
              setRevoking(undefined);
              keys.reload();
            });
        }}
      >
        <p>
          The key {revoking ? keyName(revoking) : ''} stops working at once: the kiosk using it can no longer reach the
          API until it gets a new key.
        </p>
      </ConfirmDialog>
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
      <LoadState loading={days.loading && !days.data} error={days.error} />
      {days.data && (
        <DayFigures caption="Last 30 days" rows={days.data} from={from} to={to} perKiosk={false} collapsed />
      )}
    </section>
  );
}
