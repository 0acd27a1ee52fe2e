/** catalog, catalog:set, redemption:cancel: the CLI side of the rewards catalog and cancelling a redemption. */
import { toAdminRewardView, upsertReward, wholeCatalog } from '../../data/rewards';
import { assertDocumentId } from '../../domain/ids';
import type { AdminRewardBody, CancelRedemptionBody } from '../../model/requestBodies';
import { validateBody } from '../../http/validation';
import { cancelRedemption } from '../../services/redemptions';
import { numberOrText } from '../args';
import { note, printJson, printListing, type Command } from '../command';
import { REWARD_KINDS } from '../../model/vocabulary';
import { UsageError } from '../errors';

/** Who cancelled, as the redemption and its refund entry record it. */
export const CANCEL_ACTOR = 'cli:redemption:cancel';

const catalogList: Command = {
  name: 'catalog',
  description:
    'Lists every reward of the catalog, the inactive ones too (GET /rewards shows only the active): id, name, ' +
    'kind, cost, stock (unlimited when none is counted) and whether it is offered. A reward broken by hand is ' +
    'named on stderr instead, with its broken fields.',
  flags: { json: { description: 'print the rewards as JSON instead' } },
  uses: { firestore: true },
  run: async (flags) => {
    const { rewards, invalid } = await wholeCatalog();
    for (const { id, invalidFields } of invalid) {
      await note(`Reward ${id} is broken (${invalidFields.join(', ')}): catalog:set with those fields mends it.`);
    }
    await printListing(flags, rewards, ['ID', 'NAME', 'KIND', 'COST', 'STOCK', 'ACTIVE'], (r) => [
      r.id,
      r.name,
      r.kind,
      r.cost,
      r.stock ?? 'unlimited',
      r.active ? 'yes' : 'no',
    ]);
  },
};

/** "unlimited" is null; anything else is read as a number, or left as text for the schema to refuse. */
const stockFlag = (value: string | undefined) =>
  value === undefined ? undefined : value === 'unlimited' ? null : numberOrText(value);

function activeFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError('--active takes true or false');
  return value === 'true';
}

const catalogSet: Command = {
  name: 'catalog:set',
  description:
    'Creates a reward (defaults: no description, unlimited stock, active) or updates one (omitted flags keep ' +
    'what is stored), checked as POST /admin/rewards checks it. Prints the reward as JSON.',
  example: 'npm run admin -- catalog:set --id coffee --name "Coffee" --cost 500 --kind voucher --stock 40',
  flags: {
    id: { value: 'ID', description: 'the reward id', required: true },
    name: { value: 'NAME', description: 'the name users see', required: true },
    cost: { value: 'POINTS', description: 'what it costs, 1-1000000 points', required: true },
    kind: { value: 'KIND', description: `${REWARD_KINDS.join(' or ')}`, required: true },
    description: { value: 'TEXT', description: 'what the user gets' },
    stock: { value: 'UNITS', description: 'units left, or "unlimited"' },
    active: { value: 'BOOL', description: 'true: offered; false: taken out of the catalog' },
    partner: { value: 'ID', description: 'the partner who honours its vouchers, or "any"' },
    'valid-days': { value: 'DAYS', description: 'days a voucher is honoured after it is issued, 1-730' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const given = {
      id: flags.required('id'),
      name: flags.required('name'),
      cost: numberOrText(flags.required('cost')),
      kind: flags.required('kind'),
      description: flags.get('description'),
      stock: stockFlag(flags.get('stock')),
      active: activeFlag(flags.get('active')),
      partnerId: flags.get('partner') === 'any' ? null : flags.get('partner'),
      validDays: flags.get('valid-days') === undefined ? undefined : numberOrText(flags.get('valid-days')!),
    };
    const definition = validateBody<AdminRewardBody>(
      'adminRewardBody',
      Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
    );
    const { reward, created } = await upsertReward(definition);
    await note(`${created ? 'Created' : 'Updated'} reward ${reward.id}${reward.active ? '' : ' (not offered)'}.`);
    await printJson(toAdminRewardView(reward));
  },
};

const redemptionCancel: Command = {
  name: 'redemption:cancel',
  description:
    "Cancels a redemption, once: its cost back to the user's spendable points (a refund entry) and one unit back " +
    'to the stock, as POST /admin/redemptions/{id}/cancel does. Prints the redemption and the new balance as JSON.',
  flags: {
    id: { value: 'ID', description: 'the redemption id', required: true },
    reason: { value: 'REASON', description: 'why, 1-200 characters (kept with the refund)', required: true },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const redemptionId = assertDocumentId(flags.required('id'), 'id');
    const { reason } = validateBody<CancelRedemptionBody>('cancelRedemptionBody', { reason: flags.required('reason') });
    const outcome = await cancelRedemption(redemptionId, reason, CANCEL_ACTOR);
    await note(`Cancelled redemption ${redemptionId}; the user's balance is now ${outcome.newBalance}.`);
    await printJson(outcome);
  },
};

export const catalogCommands: readonly Command[] = [catalogList, catalogSet, redemptionCancel];
