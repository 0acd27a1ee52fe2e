import { toAdminRewardView, upsertReward } from '../../data/rewards';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import type { AdminRewardBody } from '../../model/requestBodies';
import { adminRewardExample } from '../apiDescription/examples';
import { answerWith, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/rewards: create (201) or update (200) a reward of the catalog. */
export const upsertRewardRoute = adminRoute<AdminRewardBody>({
  method: 'POST',
  path: '/admin/rewards',
  bodySchema: 'adminRewardBody',
  handler: async ({ body, caller }) => {
    const { reward, created } = await upsertReward(body);
    logInfo(created ? 'reward_created' : 'reward_updated', { rewardId: reward.id, by: caller.uid });
    return { status: created ? 201 : 200, body: { success: true, reward: toAdminRewardView(reward) } };
  },
  doc: {
    operationId: 'upsertReward',
    summary: 'Create or update a reward',
    description:
      'Creates the reward under `id` (defaults: description "", unlimited stock, active) or updates it: omitted ' +
      'fields are kept. `stock` null makes it unlimited; `active: false` takes it out of the catalog (its ' +
      'redemptions stay valid). The stock is what is left: each redemption takes one, each cancel gives one back.\n\n' +
      'A voucher is honoured by the partner `partnerId` (null: any partner; default null) for `validDays` days ' +
      'after it is issued (1-730, default 90); a change applies to vouchers issued after it.',
    tag: 'Rewards',
    example: {
      id: 'coffee-voucher',
      name: 'Coffee at Kaffee Alex',
      description: 'One coffee of any size at Kaffee Alex, Alexanderplatz',
      cost: 500,
      kind: 'voucher',
      stock: 42,
      partnerId: 'kaffee-alex',
      validDays: 90,
    },
    responses: {
      200: answerWith('Updated', 'reward', 'AdminReward', adminRewardExample),
      201: answerWith('Created', 'reward', 'AdminReward', adminRewardExample),
      400: {
        description:
          'An invalid id, a cost outside 1-1,000,000, an unknown kind, a negative stock, `validDays` outside ' +
          '1-730, or a `partnerId` that names no partner',
        codes: ['invalid-argument'],
      },
      503: overloadedAnswer,
    },
  },
});
