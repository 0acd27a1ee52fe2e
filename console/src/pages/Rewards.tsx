import { useState } from 'preact/hooks';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { formatNumber } from '../format';
import { useAction, useLoad } from '../hooks';
import { REWARD_KINDS, type AdminReward, type Partner, type RewardKind } from '../types';

/** The form's fields, as typed: numbers stay text until sent, so the API judges them. */
interface RewardForm {
  id: string;
  name: string;
  description: string;
  cost: string;
  kind: RewardKind;
  stock: string;
  active: boolean;
  /** '' : any partner. */
  partnerId: string;
  validDays: string;
}

const emptyForm: RewardForm = {
  id: '',
  name: '',
  description: '',
  cost: '',
  kind: 'voucher',
  stock: '',
  active: true,
  partnerId: '',
  validDays: '90',
};

const formOf = (reward: AdminReward): RewardForm => ({
  ...reward,
  cost: String(reward.cost),
  stock: reward.stock === null ? '' : String(reward.stock),
  partnerId: reward.partnerId ?? '',
  validDays: String(reward.validDays),
});

/** A number field as the API takes it: a number when it reads as one, else the text (the API names the field). */
const numberOrText = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

export default function Rewards() {
  const rewards = useLoad(() => api<{ rewards: AdminReward[] }>('/admin/rewards').then((answer) => answer.rewards), []);
  const [editing, setEditing] = useState<{ form: RewardForm; isNew: boolean } | undefined>();
  const save = useAction();
  const partners = useLoad(() => api<{ partners: Partner[] }>('/admin/partners').then((answer) => answer.partners), []);

  const open = (form: RewardForm, isNew: boolean) => {
    setEditing({ form, isNew });
    save.setOutcome(undefined);
    // After the form is drawn: its first field takes the focus.
    requestAnimationFrame(() => document.getElementById(isNew ? 'reward-id' : 'reward-name')?.focus());
  };

  const columns: Column<AdminReward>[] = [
    { header: 'Name', cell: (reward) => reward.name, sortValue: (reward) => reward.name, rowHeader: true },
    { header: 'Id', cell: (reward) => reward.id, sortValue: (reward) => reward.id },
    { header: 'Kind', cell: (reward) => reward.kind, sortValue: (reward) => reward.kind },
    { header: 'Cost', cell: (reward) => formatNumber(reward.cost), sortValue: (reward) => reward.cost, numeric: true },
    {
      header: 'Stock',
      cell: (reward) => (reward.stock === null ? 'Unlimited' : formatNumber(reward.stock)),
      sortValue: (reward) => reward.stock ?? Infinity,
      numeric: true,
    },
    {
      header: 'Active',
      cell: (reward) => (reward.active ? 'Yes' : 'No'),
      sortValue: (reward) => (reward.active ? 1 : 0),
    },
    {
      header: 'Action',
      cell: (reward) => (
        <button type="button" class="secondary" onClick={() => open(formOf(reward), false)}>
          Edit {reward.name}
        </button>
      ),
    },
  ];

  const update = (change: Partial<RewardForm>) =>
    editing && setEditing({ ...editing, form: { ...editing.form, ...change } });

  return (
    <Page title="Rewards">
      <p>The whole catalog: the rewards on offer and those taken out of it (not active).</p>
      <button type="button" onClick={() => open(emptyForm, true)}>
        New reward
      </button>
      {editing && (
        <section>
          <h2>{editing.isNew ? 'New reward' : `Edit ${editing.form.name}`}</h2>
          <form
            class="form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              const { form, isNew } = editing;
              save.run(async () => {
                const { reward } = await api<{ reward: AdminReward }>('/admin/rewards', {
                  method: 'POST',
                  body: {
                    id: form.id.trim(),
                    name: form.name,
                    description: form.description,
                    cost: numberOrText(form.cost),
                    kind: form.kind,
                    stock: form.stock.trim() === '' ? null : numberOrText(form.stock),
                    active: form.active,
                    partnerId: form.partnerId === '' ? null : form.partnerId,
                    validDays: numberOrText(form.validDays),
                  },
                });
                setEditing({ form: formOf(reward), isNew: false });
                rewards.reload();
                return `Reward ${reward.name} ${isNew ? 'created' : 'saved'}.`;
              });
            }}
          >
            <label for="reward-id">Id</label>
            <input
              id="reward-id"
              value={editing.form.id}
              readOnly={!editing.isNew}
              aria-describedby="reward-id-hint"
              onInput={(event) => update({ id: event.currentTarget.value })}
            />
            <p class="hint" id="reward-id-hint">
              {editing.isNew
                ? 'Letters, digits and hyphens, e.g. coffee-voucher; it cannot change later.'
                : 'The id cannot change.'}
            </p>
            <label for="reward-name">Name</label>
            <input
              id="reward-name"
              value={editing.form.name}
              onInput={(event) => update({ name: event.currentTarget.value })}
            />
            <label for="reward-description">Description</label>
            <textarea
              id="reward-description"
              rows={3}
              value={editing.form.description}
              onInput={(event) => update({ description: event.currentTarget.value })}
            />
            <label for="reward-cost">Cost</label>
            <input
              id="reward-cost"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={editing.form.cost}
              aria-describedby="reward-cost-hint"
              onInput={(event) => update({ cost: event.currentTarget.value })}
            />
            <p class="hint" id="reward-cost-hint">
              Points, 1 to 1,000,000.
            </p>
            <label for="reward-kind">Kind</label>
            <select
              id="reward-kind"
              value={editing.form.kind}
              onChange={(event) => update({ kind: event.currentTarget.value as RewardKind })}
            >
              {REWARD_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
            <label for="reward-stock">Stock</label>
            <input
              id="reward-stock"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={editing.form.stock}
              aria-describedby="reward-stock-hint"
              onInput={(event) => update({ stock: event.currentTarget.value })}
            />
            <p class="hint" id="reward-stock-hint">
              Units left; empty: unlimited.
            </p>
            <label for="reward-partner">Partner</label>
            <select
              id="reward-partner"
              value={editing.form.partnerId}
              aria-describedby="reward-partner-hint"
              onChange={(event) => update({ partnerId: event.currentTarget.value })}
            >
              <option value="">Any partner</option>
              {(partners.data ?? []).map((partner) => (
                <option key={partner.id} value={partner.id}>
                  {partner.name}
                </option>
              ))}
            </select>
            <p class="hint" id="reward-partner-hint">
              Who honours its vouchers.
            </p>
            <label for="reward-valid-days">Valid days</label>
            <input
              id="reward-valid-days"
              type="number"
              inputMode="numeric"
              min={1}
              max={730}
              step={1}
              value={editing.form.validDays}
              aria-describedby="reward-valid-days-hint"
              onInput={(event) => update({ validDays: event.currentTarget.value })}
            />
            <p class="hint" id="reward-valid-days-hint">
              Days a voucher is honoured after it is issued, 1 to 730.
            </p>
            <label class="check">
              <input
                type="checkbox"
                checked={editing.form.active}
                onChange={(event) => update({ active: event.currentTarget.checked })}
              />
              Active
            </label>
            <div class="actions">
              <button type="submit" disabled={save.busy}>
                Save reward
              </button>
              <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
                Close form
              </button>
            </div>
          </form>
        </section>
      )}
      <Outcome outcome={save.outcome} />
      <LoadState loading={rewards.loading && !rewards.data} error={rewards.error} />
      {rewards.data && (
        <DataTable
          caption="Rewards"
          columns={columns}
          rows={rewards.data}
          rowKey={(reward) => reward.id}
          empty="No rewards yet."
        />
      )}
    </Page>
  );
}
