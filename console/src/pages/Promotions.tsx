import { useState } from 'preact/hooks';
import { api, numberOrText } from '../api';
import { ActionForm } from '../components/Actions';
import { ListTable, type Column } from '../components/DataTable';
import { CheckField, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { RecordForm, useRecordEditor } from '../components/RecordEditor';
import { formatDateTime, formatNumber } from '../format';
import { useAction, useLoad } from '../hooks';
import type { AdminPromotion } from '../types';

/** The form's fields, as typed: numbers and times stay text until sent, so the API judges them ('' : none). */
interface PromotionForm {
  id: string;
  name: string;
  active: boolean;
  multiplier: string;
  bonusPoints: string;
  startsAt: string;
  endsAt: string;
  hours: string;
  kioskIds: string;
  minItems: string;
  budgetPoints: string;
}

const emptyForm: PromotionForm = {
  id: '',
  name: '',
  active: true,
  multiplier: '',
  bonusPoints: '',
  startsAt: '',
  endsAt: '',
  hours: '',
  kioskIds: '',
  minItems: '',
  budgetPoints: '',
};

/** The form's fields after the id and name, as the API takes them; a `count` is a whole number from 1. */
const FIELDS: {
  key: Exclude<keyof PromotionForm, 'id' | 'name' | 'active'>;
  label: string;
  hint: string;
  count?: true;
}[] = [
  { key: 'multiplier', label: 'Multiplier', hint: 'Above 1, at most 10, one decimal; or a bonus instead.' },
  { key: 'bonusPoints', label: 'Bonus points', count: true, hint: '1 to 10,000; or a multiplier instead.' },
  { key: 'startsAt', label: 'Starts at', hint: 'RFC 3339, e.g. 2026-12-05T00:00:00+01:00; empty: open.' },
  { key: 'endsAt', label: 'Ends at', hint: 'RFC 3339, after the start; empty: open.' },
  { key: 'hours', label: 'Hours', hint: 'opening_hours syntax, e.g. Sa,Su 00:00-24:00; empty: any time.' },
  { key: 'kioskIds', label: 'Kiosk ids', hint: 'Comma-separated; empty: every kiosk.' },
  { key: 'minItems', label: 'Minimum items', count: true, hint: '1 to 1,000; empty: any deposit.' },
  { key: 'budgetPoints', label: 'Budget points', count: true, hint: 'The most it gives in all; empty: no limit.' },
];

const text = (value: string | number | null) => (value === null ? '' : String(value));

const formOf = (promotion: AdminPromotion): PromotionForm => ({
  id: promotion.id,
  name: promotion.name,
  active: promotion.active,
  multiplier: text(promotion.multiplier),
  bonusPoints: text(promotion.bonusPoints),
  startsAt: text(promotion.startsAt),
  endsAt: text(promotion.endsAt),
  hours: text(promotion.hours),
  kioskIds: promotion.kioskIds?.join(', ') ?? '',
  minItems: text(promotion.minItems),
  budgetPoints: text(promotion.budgetPoints),
});

const orNull = <T,>(value: string, as: (text: string) => T): T | null =>
  value.trim() === '' ? null : as(value.trim());

/** The whole promotion: a POST replaces it, so every field is sent. */
const bodyOf = (form: PromotionForm) => ({
  id: form.id.trim(),
  name: form.name,
  active: form.active,
  multiplier: orNull(form.multiplier, numberOrText),
  bonusPoints: orNull(form.bonusPoints, numberOrText),
  startsAt: orNull(form.startsAt, String),
  endsAt: orNull(form.endsAt, String),
  hours: orNull(form.hours, String),
  kioskIds: orNull(form.kioskIds, (ids) => ids.split(/[\s,]+/).filter(Boolean)),
  minItems: orNull(form.minItems, numberOrText),
  budgetPoints: orNull(form.budgetPoints, numberOrText),
});

const storePromotion = (form: PromotionForm): Promise<PromotionForm> =>
  api<{ promotion: AdminPromotion }>('/admin/promotions', { method: 'POST', body: bodyOf(form) }).then((answer) =>
    formOf(answer.promotion),
  );

const adds = (promotion: AdminPromotion) =>
  promotion.multiplier !== null ? `× ${promotion.multiplier}` : `+ ${formatNumber(promotion.bonusPoints ?? 0)}`;

const givenOf = (promotion: AdminPromotion) =>
  `${formatNumber(promotion.pointsGiven)} of ${promotion.budgetPoints === null ? 'unlimited' : formatNumber(promotion.budgetPoints)}`;

/** Its window and hours as the form's hints say them: an open end is left unsaid, neither is any time. */
function whenOf(promotion: AdminPromotion): string {
  const { startsAt, endsAt, hours } = promotion;
  const window =
    startsAt && endsAt
      ? `${formatDateTime(startsAt)} to ${formatDateTime(endsAt)}`
      : startsAt
        ? `From ${formatDateTime(startsAt)}`
        : endsAt
          ? `Until ${formatDateTime(endsAt)}`
          : '';
  return [window, hours].filter(Boolean).join(', ') || 'Any time';
}

/** Promotions (contract §16): what each gave against its budget; create, edit, deactivate; try a deposit. */
export default function Promotions() {
  const promotions = useLoad(
    () => api<{ promotions: AdminPromotion[] }>('/admin/promotions').then((answer) => answer.promotions),
    [],
  );
  const editor = useRecordEditor('promotion', emptyForm, storePromotion, promotions.reload);
  const deactivate = useAction();

  const columns: Column<AdminPromotion>[] = [
    { header: 'Name', cell: (p) => p.name, sortValue: (p) => p.name, rowHeader: true },
    { header: 'Id', cell: (p) => p.id, sortValue: (p) => p.id },
    { header: 'Adds', cell: adds, sortValue: (p) => p.multiplier ?? 0 },
    { header: 'Given', cell: givenOf, sortValue: (p) => p.pointsGiven, numeric: true },
    { header: 'Kiosks', cell: (p) => p.kioskIds?.join(', ') ?? 'All' },
    { header: 'When', cell: whenOf },
    { header: 'Active', cell: (p) => (p.active ? 'Yes' : 'No'), sortValue: (p) => (p.active ? 1 : 0) },
    {
      header: 'Action',
      cell: (p) => (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => editor.open(formOf(p))}>
            Edit <span class="visually-hidden">{p.name}</span>
          </button>
          {p.active && (
            <button
              type="button"
              class="secondary"
              disabled={deactivate.busy}
              onClick={() =>
                deactivate.run(async () => {
                  await storePromotion({ ...formOf(p), active: false });
                  promotions.reload();
                  return `Promotion ${p.name} deactivated.`;
                })
              }
            >
              Deactivate <span class="visually-hidden">{p.name}</span>
            </button>
          )}
        </div>
      ),
    },
  ];

  const { bind } = editor;
  return (
    <Page title="Promotions">
      <p>
        What a deposit is worth beyond its base: the largest multiplier that applies, then every bonus, each within its
        budget, under the daily cap. Windows and hours count by when the deposit was made, in the kiosk's time zone.
      </p>
      <RecordForm editor={editor} exampleId="weekend-double">
        {FIELDS.map(({ key, count, ...field }) => (
          <TextField
            key={key}
            {...field}
            type={count ? 'number' : undefined}
            min={count ? 1 : undefined}
            {...bind(key)}
          />
        ))}
        <CheckField
          label="Active"
          checked={editor.editing?.form.active ?? true}
          onChecked={(active) => editor.update({ active })}
        />
      </RecordForm>
      {deactivate.outcome && <p role={deactivate.outcome.kind}>{deactivate.outcome.text}</p>}
      <ListTable caption="Promotions" columns={columns} list={promotions} rowKey="id" empty="No promotions yet." />
      <Simulation />
    </Page>
  );
}

/** What a deposit would earn now (POST /admin/promotions/simulate), with its breakdown. */
function Simulation() {
  const [form, setForm] = useState({ kioskId: '', userId: '', plastic: '0', metal: '0', occurredAt: '' });
  const simulate = useAction();
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onValue: (value: string) => setForm({ ...form, [key]: value }),
  });
  return (
    <section>
      <h2>Try a deposit</h2>
      <ActionForm
        action={simulate}
        submitLabel="Simulate"
        onSubmit={() =>
          simulate.run(async () => {
            const answer = await api<{
              pointsEarned: number;
              capped: boolean;
              breakdown: { source: string; name?: string; points: number }[];
            }>('/admin/promotions/simulate', {
              method: 'POST',
              body: {
                kioskId: form.kioskId.trim(),
                userId: orNull(form.userId, String),
                plasticCount: numberOrText(form.plastic),
                metalCount: numberOrText(form.metal),
                occurredAt: orNull(form.occurredAt, String),
              },
            });
            const why = answer.breakdown.map((entry) => `${entry.name ?? entry.source} ${entry.points}`).join(' + ');
            return `${formatNumber(answer.pointsEarned)} points${why ? ` (${why})` : ''}${answer.capped ? ', capped' : ''}.`;
          })
        }
      >
        <TextField label="Kiosk id" {...field('kioskId')} />
        <TextField label="User id" hint="Whose daily cap counts; empty: none earned today." {...field('userId')} />
        <TextField label="Plastic items" type="number" min={0} {...field('plastic')} />
        <TextField label="Metal items" type="number" min={0} {...field('metal')} />
        <TextField label="Occurred at" hint="RFC 3339; empty: now." {...field('occurredAt')} />
      </ActionForm>
    </section>
  );
}
