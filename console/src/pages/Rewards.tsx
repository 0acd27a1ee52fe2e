import { api } from '../api';
import { ListTable, type Column } from '../components/DataTable';
import { CheckField, SelectField, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { RecordForm, useRecordEditor } from '../components/RecordEditor';
import { formatNumber } from '../format';
import { useLoad } from '../hooks';
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
  const editor = useRecordEditor<RewardForm>('reward');
  const partners = useLoad(() => api<{ partners: Partner[] }>('/admin/partners').then((answer) => answer.partners), []);

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
        <button type="button" class="secondary" onClick={() => editor.open(formOf(reward), false)}>
          Edit {reward.name}
        </button>
      ),
    },
  ];

  const form = editor.editing?.form;
  const update = editor.update;
  return (
    <Page title="Rewards">
      <p>The whole catalog: the rewards on offer and those taken out of it (not active).</p>
      <button type="button" onClick={() => editor.open(emptyForm, true)}>
        New reward
      </button>
      <RecordForm
        editor={editor}
        exampleId="coffee-voucher"
        store={async (sent) => {
          const { reward } = await api<{ reward: AdminReward }>('/admin/rewards', {
            method: 'POST',
            body: {
              id: sent.id.trim(),
              name: sent.name,
              description: sent.description,
              cost: numberOrText(sent.cost),
              kind: sent.kind,
              stock: sent.stock.trim() === '' ? null : numberOrText(sent.stock),
              active: sent.active,
              partnerId: sent.partnerId === '' ? null : sent.partnerId,
              validDays: numberOrText(sent.validDays),
            },
          });
          rewards.reload();
          return formOf(reward);
        }}
      >
        {form && (
          <>
            <TextField
              id="reward-description"
              label="Description"
              multiline
              value={form.description}
              onValue={(description) => update({ description })}
            />
            <TextField
              id="reward-cost"
              label="Cost"
              type="number"
              min={1}
              hint="Points, 1 to 1,000,000."
              value={form.cost}
              onValue={(cost) => update({ cost })}
            />
            <SelectField
              id="reward-kind"
              label="Kind"
              choices={REWARD_KINDS}
              value={form.kind}
              onValue={(kind) => update({ kind: kind as RewardKind })}
            />
            <TextField
              id="reward-stock"
              label="Stock"
              type="number"
              min={0}
              hint="Units left; empty: unlimited."
              value={form.stock}
              onValue={(stock) => update({ stock })}
            />
            <SelectField
              id="reward-partner"
              label="Partner"
              hint="Who honours its vouchers."
              choices={[
                { value: '', label: 'Any partner' },
                ...(partners.data ?? []).map((partner) => ({ value: partner.id, label: partner.name })),
              ]}
              value={form.partnerId}
              onValue={(partnerId) => update({ partnerId })}
            />
            <TextField
              id="reward-valid-days"
              label="Valid days"
              type="number"
              min={1}
              max={730}
              hint="Days a voucher is honoured after it is issued, 1 to 730."
              value={form.validDays}
              onValue={(validDays) => update({ validDays })}
            />
            <CheckField label="Active" checked={form.active} onChecked={(active) => update({ active })} />
          </>
        )}
      </RecordForm>
      <ListTable
        caption="Rewards"
        columns={columns}
        list={rewards}
        rowKey={(reward) => reward.id}
        empty="No rewards yet."
      />
    </Page>
  );
}
