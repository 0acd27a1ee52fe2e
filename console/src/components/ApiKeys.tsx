import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDateTime } from '../format';
import { useAction, useLoad } from '../hooks';
import type { KioskKey } from '../types';
import { ActionForm } from './Actions';
import { ListTable, type Column } from './DataTable';
import { ConfirmDialog, useConfirm } from './Dialog';
import { TextField } from './Field';
import { ShownOnce } from './ShownOnce';

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
  const revoke = useConfirm<KioskKey>();
  const [label, setLabel] = useState('');
  const [newKey, setNewKey] = useState<string | undefined>();

  const columns: Column<KioskKey>[] = [
    { header: 'Label', cell: (key) => key.label || '(no label)', rowHeader: true },
    { header: 'Key id', cell: (key) => <code>{key.keyId.slice(0, 12)}…</code> },
    { header: 'Created', cell: (key) => formatDateTime(key.createdAt) },
    { header: 'Revoked', cell: (key) => (key.revokedAt ? formatDateTime(key.revokedAt) : 'Active') },
    {
      header: 'Action',
      cell: (key) =>
        key.revokedAt ? null : (
          <button type="button" class="danger" onClick={() => revoke.ask(key)}>
            Revoke key {keyName(key)}
          </button>
        ),
    },
  ];

  return (
    <section>
      <h2>API keys</h2>
      <ListTable caption="API keys" columns={columns} list={keys} rowKey="keyId" empty="No keys yet." />
      <ConfirmDialog
        confirm={revoke}
        verb="Revoke"
        noun="key"
        act={async (key) => {
          await api(`${path}/keys/${encodeURIComponent(key.keyId)}`, { method: 'DELETE' });
          return `Key ${keyName(key)} revoked: it no longer works.`;
        }}
        onDone={keys.reload}
      >
        {(key) => (
          <p>
            The key {keyName(key)} stops working at once: {revokedMeans}.
          </p>
        )}
      </ConfirmDialog>
      <ActionForm
        action={create}
        submitLabel="Create key"
        onSubmit={() =>
          create.run(async () => {
            const answer = await api<Record<string, string>>(`${path}/keys`, {
              method: 'POST',
              body: { label },
            });
            setNewKey(keyOf(answer));
            setLabel('');
            keys.reload();
            return `Key ${label || '(no label)'} created.`;
          })
        }
      >
        <TextField label="Key label" value={label} maxLength={200} onValue={setLabel} />
      </ActionForm>
      {newKey && (
        <ShownOnce
          key={newKey}
          label="New API key"
          noun="key"
          value={newKey}
          note={`Store it ${storeWhere} now: it will not be shown again.`}
        />
      )}
    </section>
  );
}
