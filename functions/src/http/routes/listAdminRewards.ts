import { toAdminRewardView, wholeCatalog } from '../../data/rewards';
import { adminRoute } from '../accessRoutes';
import { adminRewardExample } from '../apiDescription/examples';

/** GET /admin/rewards: the whole catalog, active or not, and the rewards broken by hand. */
export const listAdminRewardsRoute = adminRoute({
  method: 'GET',
  path: '/admin/rewards',
  handler: async () => {
    const { rewards, invalid } = await wholeCatalog();
    return { body: { success: true, rewards: rewards.map(toAdminRewardView), invalidRewards: invalid } };
  },
  doc: {
    operationId: 'listAdminRewards',
    summary: 'The whole catalog, for operators',
    description:
      'Every reward, active or not (`active`), by id. A reward whose stored document was broken by hand (a field ' +
      'missing or out of bounds) cannot be shown, offered or spent on: it is listed apart in `invalidRewards` ' +
      'with the fields at fault, and `POST /admin/rewards` giving those fields mends it.',
    tag: 'Rewards',
    responses: {
      200: {
        description: 'The rewards by id, and those broken by hand by id',
        schema: ({ Type, successBody, closedObject, id, AdminReward }) =>
          successBody({
            rewards: Type.Array(AdminReward),
            invalidRewards: Type.Array(
              closedObject(
                {
                  id,
                  invalidFields: Type.Array(Type.String(), {
                    minItems: 1,
                    description: 'The fields that are missing or out of bounds, e.g. `cost`',
                  }),
                },
                { description: 'A reward broken by hand: never offered nor spent on until it is mended' },
              ),
            ),
          }),
        example: {
          success: true,
          rewards: [
            adminRewardExample,
            {
              ...adminRewardExample,
              id: 'tote-bag',
              name: 'Tote bag',
              description: 'A cotton bag for the next bottles',
              cost: 800,
              stock: 0,
              available: false,
              active: false,
              partnerId: null,
            },
          ],
          invalidRewards: [{ id: 'cinema-ticket', invalidFields: ['cost'] }],
        },
      },
    },
  },
});
