import { activeRewards } from '../../data/rewards';
import { rewardExample } from '../apiDescription/examples';
import { answerWith } from '../apiDescription/routeAnswers';
import type { Route } from '../types';

/** GET /rewards: the catalog, as anyone sees it. */
export const listRewardsRoute: Route = {
  method: 'GET',
  path: '/rewards',
  handler: async () => ({ body: { success: true, rewards: await activeRewards() } }),
  doc: {
    operationId: 'listRewards',
    summary: 'The rewards catalog',
    description:
      'The rewards on offer (active), cheapest first: what points buy. `available` is false when the stock is 0; ' +
      '`stock` null means unlimited.',
    tag: 'Rewards',
    access: 'public',
    responses: {
      200: answerWith(
        'The active rewards, cheapest first',
        'rewards',
        ['Reward'],
        [
          { ...rewardExample, id: 'tree-donation', name: 'Plant a tree', kind: 'donation', cost: 200, stock: null },
          rewardExample,
        ],
      ),
    },
  },
};
