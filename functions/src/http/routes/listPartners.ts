import { allPartners } from '../../data/partners';
import { adminRoute } from '../accessRoutes';
import { answerWith } from '../apiDescription/routeAnswers';
import { partnerExample } from '../apiDescription/examples';

/** GET /admin/partners: every partner, by id. */
export const listPartnersRoute = adminRoute({
  method: 'GET',
  path: '/admin/partners',
  handler: async () => ({ body: { success: true, partners: await allPartners() } }),
  doc: {
    operationId: 'listPartners',
    summary: 'List partners',
    description: 'Every partner, by id.',
    tag: 'Partners',
    responses: {
      200: answerWith(
        'The partners, by id',
        'partners',
        ['Partner'],
        [partnerExample, { id: 'kino-mitte', name: 'Kino Mitte' }],
      ),
    },
  },
});
