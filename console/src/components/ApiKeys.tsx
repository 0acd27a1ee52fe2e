import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDateTime } from '../format';
import { useAction, useLoad } from '../hooks';
import type { KioskKey } from '../types';
import { DataTable, type Column } from './DataTable';
import { ConfirmDialog } from './Dialog';
import { LoadState, Outcome } from './Outcome';

const keyName = (key: KioskKey): string => key.label || key.keyId.slice(0, 12);

/**
 * The API keys of a kiosk or a partner at `path` (`${path}/keys`): listed, created
 * (the key shown this once, with a copy button) and revoked after a confirmation.
 */
export function ApiKeys({
  path,
  keyOf,
  storeWhere,
  revokedMeans,
}: {
  path: string;
  /** The key in the create answer (kiosks: `apiKey`, partners: `key`). */
  keyOf: (answer: Record<string, string>) => string;
  /** Where the new key must be stored, e.g. "on the kiosk". */
  storeWhere: string;
  /** What a revoke does to whoever holds the key. */
  revokedMeans: string;
}) {
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
            const answer = await api<Record<string, string>>(`${path}/keys`, {
              method: 'POST',
              body: { label },
            });
            setNewKey({ apiKey: keyOf(answer), label });
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
          <p id="new-key-note">Store it {storeWhere} now: it will not be shown again.</p>
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
          The key {revoking ? keyName(revoking) : ''} stops working at once: {revokedMeans}.
        </p>
      </ConfirmDialog>
    </section>
  );
}
