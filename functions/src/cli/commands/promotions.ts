/** promotions:list, promotions:set, promotions:simulate: the CLI side of promotions (contract §16). */
import { allPromotions, promotionFromBody, upsertPromotion } from '../../data/promotions';
import { validateBody } from '../../http/validation';
import type { PromotionBody, SimulateBody } from '../../model/promotionViews';
import { simulateDeposit } from '../../services/promotions';
import { numberOrText } from '../args';
import { note, printJson, printListing, type Command } from '../command';
import { UsageError } from '../errors';
import { bodyOf, type BodyFlag } from '../flags';

const promotionsList: Command = {
  name: 'promotions:list',
  description:
    'Lists every promotion, active or not: id, name, what it adds, points given against its budget, kiosks, window.',
  flags: { json: { description: 'print the promotions as JSON instead' } },
  uses: { firestore: true },
  run: async (flags) => {
    const promotions = await allPromotions();
    await printListing(flags, promotions, ['ID', 'NAME', 'ADDS', 'GIVEN/BUDGET', 'KIOSKS', 'WINDOW', 'ACTIVE'], (p) => [
      p.id,
      p.name,
      p.multiplier !== null ? `x${p.multiplier}` : `+${p.bonusPoints}`,
      `${p.pointsGiven}/${p.budgetPoints ?? 'unlimited'}`,
      p.kioskIds?.join(',') ?? 'all',
      `${p.startsAt ?? '…'} - ${p.endsAt ?? '…'}${p.hours ? ` (${p.hours})` : ''}`,
      p.active ? 'yes' : 'no',
    ]);
  },
};

function activeFlag(value: string): boolean {
  if (value !== 'true' && value !== 'false') throw new UsageError('--active takes true or false');
  return value === 'true';
}

const promotionFlags: Record<string, BodyFlag> = {
  id: { field: 'id', value: 'ID', description: 'the promotion id', required: true },
  name: { field: 'name', value: 'NAME', description: 'what members see, 1-100 characters', required: true },
  active: {
    field: 'active',
    read: activeFlag,
    value: 'BOOL',
    description: 'false: it applies to no deposit (default true)',
  },
  'starts-at': { field: 'startsAt', value: 'RFC3339', description: 'deposits made from then (by occurredAt)' },
  'ends-at': { field: 'endsAt', value: 'RFC3339', description: 'deposits made before then' },
  hours: {
    field: 'hours',
    value: 'HOURS',
    description: 'opening_hours syntax in each kiosk\'s time zone, e.g. "Sa,Su 00:00-24:00"',
  },
  kiosks: {
    field: 'kioskIds',
    read: (ids) => ids.split(','),
    value: 'ID,ID',
    description: 'only at these kiosks (1-100 ids, comma-separated)',
  },
  'min-items': {
    field: 'minItems',
    read: numberOrText,
    value: 'N',
    description: 'only deposits of at least N items (1-1000)',
  },
  multiplier: {
    field: 'multiplier',
    read: numberOrText,
    value: 'X',
    description: 'above 1, at most 10, one decimal: adds floor(base × (X − 1))',
  },
  'bonus-points': { field: 'bonusPoints', read: numberOrText, value: 'POINTS', description: 'adds POINTS (1-10000)' },
  'budget-points': {
    field: 'budgetPoints',
    read: numberOrText,
    value: 'POINTS',
    description: 'the most points it gives in all (1-100000000)',
  },
};

const promotionsSet: Command = {
  name: 'promotions:set',
  description:
    'Creates or replaces a promotion, checked as POST /admin/promotions checks it: an omitted flag takes its ' +
    'default (active; no window, hours, kiosk list, minimum or budget). Exactly one of --multiplier and ' +
    '--bonus-points. A replacement keeps what it gave. Prints the promotion as JSON.',
  example:
    'npm run admin -- promotions:set --id weekend-double --name "Double points this weekend" --multiplier 2 ' +
    '--hours "Sa,Su 00:00-24:00" --kiosks berlin-alexanderplatz,berlin-zoo --budget-points 200000',
  flags: promotionFlags,
  uses: { firestore: true },
  run: async (flags) => {
    const body = validateBody<PromotionBody>('promotionBody', bodyOf(promotionFlags, flags));
    const { promotion, created } = await upsertPromotion(promotionFromBody(body));
    await note(
      `${created ? 'Created' : 'Replaced'} promotion ${promotion.id}${promotion.active ? '' : ' (inactive)'}.`,
    );
    await printJson(promotion);
  },
};

const simulateFlags: Record<string, BodyFlag> = {
  kiosk: { field: 'kioskId', value: 'ID', description: 'the kiosk', required: true },
  user: { field: 'userId', value: 'ID', description: 'whose daily cap counts' },
  plastic: { field: 'plasticCount', read: numberOrText, value: 'N', description: 'plastic items', required: true },
  metal: { field: 'metalCount', read: numberOrText, value: 'N', description: 'metal items', required: true },
  'occurred-at': { field: 'occurredAt', value: 'RFC3339', description: 'when the deposit is made (default now)' },
};

const promotionsSimulate: Command = {
  name: 'promotions:simulate',
  description:
    'What a deposit would earn now under the promotions (and the daily cap of --user, when given), with its ' +
    'breakdown, as POST /admin/promotions/simulate answers. Writes nothing.',
  example:
    'npm run admin -- promotions:simulate --kiosk berlin-zoo --plastic 3 --metal 2 --occurred-at 2026-11-21T10:00:00Z',
  flags: simulateFlags,
  uses: { firestore: true },
  run: async (flags) => {
    await printJson(await simulateDeposit(validateBody<SimulateBody>('simulateBody', bodyOf(simulateFlags, flags))));
  },
};

export const promotionCommands: readonly Command[] = [promotionsList, promotionsSet, promotionsSimulate];
