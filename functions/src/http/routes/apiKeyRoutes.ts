import { assertKioskExists } from '../../data/kiosks';
import { issueKey, revokeKey } from '../../data/kioskKeys';
import { assertPartnerExists, partnerKeys } from '../../data/partners';
import { notFound } from '../../errors';
import { logInfo } from '../../log';
import { adminRoute } from '../accessRoutes';
import type { ApiTag } from '../apiDescription/operation';
import type { KioskKeyBody } from '../../model/requestBodies';
import { doneAnswer, overloadedAnswer } from '../apiDescription/routeAnswers';

/**
 * The API-key routes of kiosks and partners, whose keys are stored alike
 * (data/apiKeys.ts): POST /admin/{holder}s/{holderId}/keys issues one, shown only in
 * its answer; DELETE /admin/{holder}s/{holderId}/keys/{keyId} revokes one at once.
 * Logged as `{holder}_key_issued` and `{holder}_key_revoked`.
 */

/** What the key routes of one kind of holder say and do differently. */
interface KeyHolder {
  holder: 'kiosk' | 'partner';
  tag: ApiTag;
  assertExists: (holderId: string) => Promise<unknown>;
  issue: (holderId: string, label: string) => Promise<{ keyId: string; apiKey: string }>;
  /** False when the holder has no such key. */
  revoke: (holderId: string, keyId: string) => Promise<boolean>;
  /** The answer's two fields, the key's id and the key itself, as this holder's answer names and orders them. */
  answerFields: <T>(keyId: T, key: T) => Record<string, T>;
  /** Where the key goes, for the description; what to do with the key, and an example of it and of a label. */
  keyHeader: string;
  keyDescription: string;
  keyExample: string;
  labelExample: string;
}

const EXAMPLE_KEY_ID = '3f1c1b0e8a9d4c2b7e6f5a4d3c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a190';

/** The holder's name in a path parameter (`kioskId`) and in an operationId (`Kiosk`). */
const namesOf = ({ holder }: KeyHolder) => ({
  holderField: `${holder}Id`,
  Holder: holder[0].toUpperCase() + holder.slice(1),
});

const issueKeyRoute = (kind: KeyHolder) => {
  const { holder } = kind;
  const { holderField, Holder } = namesOf(kind);
  return adminRoute<KioskKeyBody>({
    method: 'POST',
    path: `/admin/${holder}s/:${holderField}/keys`,
    bodySchema: 'kioskKeyBody',
    handler: async ({ params, body, caller }) => {
      const holderId = params[holderField];
      await kind.assertExists(holderId);
      const { keyId, apiKey } = await kind.issue(holderId, body.label ?? '');
      logInfo(`${holder}_key_issued`, { [holderField]: holderId, keyId, by: caller.uid });
      return { status: 201, body: { success: true, ...kind.answerFields(keyId, apiKey) } };
    },
    doc: {
      operationId: `create${Holder}Key`,
      summary: `Issue an API key for a ${holder}`,
      description:
        `A new key for ${kind.keyHeader}. The key is shown in this answer only: the service keeps its ` +
        'SHA-256 (`keyId`), never the key.',
      tag: kind.tag,
      example: { label: kind.labelExample },
      responses: {
        201: {
          description: 'The new key',
          schema: ({ Type, successBody, apiKeyId }) =>
            successBody(kind.answerFields(apiKeyId, Type.String({ minLength: 1, description: kind.keyDescription }))),
          example: { success: true, ...kind.answerFields(EXAMPLE_KEY_ID, kind.keyExample) },
        },
        404: { description: `No ${holder} has this id`, codes: ['not-found'] },
        503: overloadedAnswer,
      },
    },
  });
};

const revokeKeyRoute = (kind: KeyHolder) => {
  const { holder } = kind;
  const { holderField, Holder } = namesOf(kind);
  return adminRoute({
    method: 'DELETE',
    path: `/admin/${holder}s/:${holderField}/keys/:keyId`,
    handler: async ({ params, caller }) => {
      const holderId = params[holderField];
      if (!(await kind.revoke(holderId, params.keyId))) {
        throw notFound(`API key ${params.keyId} not found for ${holder} ${holderId}`);
      }
      logInfo(`${holder}_key_revoked`, { [holderField]: holderId, keyId: params.keyId, by: caller.uid });
      return { body: { success: true } };
    },
    doc: {
      operationId: `revoke${Holder}Key`,
      summary: `Revoke a ${holder} API key`,
      description: 'The key stops working at once. Revoking a revoked key again is fine.',
      tag: kind.tag,
      responses: {
        200: doneAnswer('Revoked'),
        404: { description: `This ${holder} has no key with this id`, codes: ['not-found'] },
        503: overloadedAnswer,
      },
    },
  });
};

const kioskKeyHolder: KeyHolder = {
  holder: 'kiosk',
  tag: 'Administration',
  assertExists: assertKioskExists,
  issue: issueKey,
  revoke: revokeKey,
  answerFields: (keyId, apiKey) => ({ keyId, apiKey }),
  keyHeader: "the kiosk's X-API-Key header",
  keyDescription: 'The key itself; store it on the kiosk now',
  keyExample: 'kr_q2V0bWUtZXhhbXBsZS1rZXktbm90LWEtcmVhbC1vbmUtMTIz',
  labelExample: 'front panel',
};

const partnerKeyHolder: KeyHolder = {
  holder: 'partner',
  tag: 'Partners',
  assertExists: assertPartnerExists,
  issue: partnerKeys.issueKey,
  revoke: partnerKeys.revokeKey,
  answerFields: (keyId, key) => ({ key, keyId }),
  keyHeader: "the partner's X-API-Key header on /partner/* (refused on kiosk routes)",
  keyDescription: "The key itself; store it in the partner's till now",
  keyExample: 'krp_q2V0bWUtZXhhbXBsZS1rZXktbm90LWEtcmVhbC1vbmUtMTIz',
  labelExample: 'till 1',
};

export const createKioskKeyRoute = issueKeyRoute(kioskKeyHolder);
export const revokeKioskKeyRoute = revokeKeyRoute(kioskKeyHolder);
export const createPartnerKeyRoute = issueKeyRoute(partnerKeyHolder);
export const revokePartnerKeyRoute = revokeKeyRoute(partnerKeyHolder);
