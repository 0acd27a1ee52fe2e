import { upsertPartner } from '../../data/partners';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import { partnerExample } from '../apiDescription/examples';
import type { PartnerBody } from '../../model/requestBodies';
import { answerWith, overloadedAnswer } from '../apiDescription/routeAnswers';

/** POST /admin/partners: create (201) or rename (200) a partner. */
export const upsertPartnerRoute = adminRoute<PartnerBody>({
  method: 'POST',
  path: '/admin/partners',
  bodySchema: 'partnerBody',
  handler: async ({ body, caller }) => {
    const { partner, created } = await upsertPartner(body.id, body.name);
    logInfo(created ? 'partner_created' : 'partner_updated', { partnerId: partner.id, by: caller.uid });
    return { status: created ? 201 : 200, body: { success: true, partner } };
  },
  doc: {
    operationId: 'upsertPartner',
    summary: 'Create or update a partner',
    description:
      'Creates the partner under `id`, or renames it. A reward names its partner (`partnerId`) to have only that ' +
      "partner honour its vouchers; the partner's keys (POST /admin/partners/{partnerId}/keys) check and use them.",
    tag: 'Partners',
    example: partnerExample,
    responses: {
      200: answerWith('Updated', 'partner', 'Partner', partnerExample),
      201: answerWith('Created', 'partner', 'Partner', partnerExample),
      400: { description: 'An invalid id, or a name empty or over 200 characters', codes: ['invalid-argument'] },
      503: overloadedAnswer,
    },
  },
});
