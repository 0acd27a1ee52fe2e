import { api, numberOrText } from '../api';
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

const storeReward = (form: RewardForm): Promise<RewardForm> =>
  api<{ reward: AdminReward }>('/admin/rewards', {
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
  }).then((answer) => formOf(answer.reward));

export default function Rewards() {
  const rewards = useLoad(() => api<{ rewards: AdminReward[] }>('/admin/rewards').then((answer) => answer.rewards), []);
  const editor = useRecordEditor('reward', emptyForm, storeReward, rewards.reload);
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
        <button type="button" class="secondary" onClick={() => editor.open(formOf(reward))}>
          Edit {reward.name}
        </button>
      ),
    },
  ];

  const { bind } = editor;
  return (
    <Page title="Rewards">
      <p>The whole catalog: the rewards on offer and those taken out of it (not active).</p>
      <RecordForm editor={editor} exampleId="coffee-voucher">
        <TextField label="Description" multiline {...bind('description')} />
        <TextField label="Cost" type="number" min={1} hint="Points, 1 to 1,000,000." {...bind('cost')} />
        <SelectField label="Kind" choices={REWARD_KINDS} {...bind('kind')} />
        <TextField label="Stock" type="number" min={0} hint="Units left; empty: unlimited." {...bind('stock')} />
        <SelectField
          label="Partner"
          hint="Who honours its vouchers."
          emptyChoice="Any partner"
          choices={(partners.data ?? []).map((partner) => ({ value: partner.id, label: partner.name }))}
          {...bind('partnerId')}
        />
        <TextField
          label="Valid days"
          type="number"
          min={1}
          max={730}
          hint="Days a voucher is honoured after it is issued, 1 to 730."
          {...bind('validDays')}
        />
        <CheckField
          label="Active"
          checked={editor.editing?.form.active ?? true}
          onChecked={(active) => editor.update({ active })}
        />
      </RecordForm>
      <ListTable caption="Rewards" columns={columns} list={rewards} rowKey="id" empty="No rewards yet." />
    </Page>
  );
}
