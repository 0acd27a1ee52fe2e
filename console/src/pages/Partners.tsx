import { useState } from 'preact/hooks';
import { api } from '../api';
import { ApiKeys } from '../components/ApiKeys';
import { DataTable, type Column } from '../components/DataTable';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { useAction, useLoad } from '../hooks';
import type { Partner } from '../types';

const emptyForm: Partner = { id: '', name: '' };

/** Partners who honour vouchers (§12): the list, a partner created or renamed, and its keys. */
export default function Partners() {
  const partners = useLoad(() => api<{ partners: Partner[] }>('/admin/partners').then((answer) => answer.partners), []);
  const [editing, setEditing] = useState<{ form: Partner; isNew: boolean } | undefined>();
  const save = useAction();

  const open = (form: Partner, isNew: boolean) => {
    setEditing({ form, isNew });
    save.setOutcome(undefined);
    requestAnimationFrame(() => document.getElementById(isNew ? 'partner-id' : 'partner-name')?.focus());
  };

  const columns: Column<Partner>[] = [
    { header: 'Name', cell: (partner) => partner.name, sortValue: (partner) => partner.name, rowHeader: true },
    { header: 'Id', cell: (partner) => partner.id, sortValue: (partner) => partner.id },
    {
      header: 'Action',
      cell: (partner) => (
        <button type="button" class="secondary" onClick={() => open(partner, false)}>
          Edit {partner.name}
        </button>
      ),
    },
  ];

  const update = (change: Partial<Partner>) =>
    editing && setEditing({ ...editing, form: { ...editing.form, ...change } });

  return (
    <Page title="Partners">
      <p>The cafés and cinemas that honour vouchers, each with its own API keys to check and use them.</p>
      <button type="button" onClick={() => open(emptyForm, true)}>
        New partner
      </button>
      {editing && (
        <section>
          <h2>{editing.isNew ? 'New partner' : `Edit ${editing.form.name}`}</h2>
          <form
            class="form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              const { form, isNew } = editing;
              save.run(async () => {
                const { partner } = await api<{ partner: Partner }>('/admin/partners', {
                  method: 'POST',
                  body: { id: form.id.trim(), name: form.name },
                });
                setEditing({ form: partner, isNew: false });
                partners.reload();
                return `Partner ${partner.name} ${isNew ? 'created' : 'saved'}.`;
              });
            }}
          >
            <label for="partner-id">Id</label>
            <input
              id="partner-id"
              value={editing.form.id}
              readOnly={!editing.isNew}
              aria-describedby="partner-id-hint"
              onInput={(event) => update({ id: event.currentTarget.value })}
            />
            <p class="hint" id="partner-id-hint">
              {editing.isNew
                ? 'Letters, digits and hyphens, e.g. kaffee-alex; it cannot change later.'
                : 'The id cannot change.'}
            </p>
            <label for="partner-name">Name</label>
            <input
              id="partner-name"
              value={editing.form.name}
              onInput={(event) => update({ name: event.currentTarget.value })}
            />
            <div class="actions">
              <button type="submit" disabled={save.busy}>
                Save partner
              </button>
              <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
                Close form
              </button>
            </div>
          </form>
          <Outcome outcome={save.outcome} />
          {!editing.isNew && (
            <ApiKeys
              path={`/admin/partners/${encodeURIComponent(editing.form.id)}`}
              keyOf={(answer) => answer.key}
              storeWhere="in the partner's till"
              revokedMeans="the partner using it can no longer check or use vouchers until it gets a new key"
            />
          )}
        </section>
      )}
      <LoadState loading={partners.loading && !partners.data} error={partners.error} />
      {partners.data && (
        <DataTable
          caption="Partners"
          columns={columns}
          rows={partners.data}
          rowKey={(partner) => partner.id}
          empty="No partners yet."
        />
      )}
    </Page>
  );
}
