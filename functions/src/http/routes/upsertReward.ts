import { toAdminRewardView, upsertReward } from '../../data/rewards';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import type { AdminRewardBody } from '../apiDescription/requestBodies';
import { rewardExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
import type { SuccessResponse } from '../apiDescription/operation';

const rewardAnswer = (description: string): SuccessResponse => ({
  description,
  schema: ({ successBody, AdminReward }) => successBody({ reward: AdminReward }),
  example: { success: true, reward: { ...rewardExample, active: true } },
});

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
      'redemptions stay valid). The stock is what is left: each redemption takes one, each cancel gives one back.',
    tag: 'Rewards',
    example: {
      id: 'coffee-voucher',
      name: 'Coffee at Kaffee Alex',
      description: 'One coffee of any size at Kaffee Alex, Alexanderplatz',
      cost: 500,
      kind: 'voucher',
      stock: 42,
    },
    responses: {
      200: rewardAnswer('Updated'),
      201: rewardAnswer('Created'),
      400: {
        description: 'An invalid id, a cost outside 1-1,000,000, an unknown kind or a negative stock',
        codes: ['invalid-argument'],
      },
      503: overloadedAnswer,
    },
  },
});
