import { exportUser } from '../../services/userExport';
import { recentSignInUserRoute } from '../accessRoutes';
import { answerForUnavailableAuth } from '../auth';
import { transactionExample, userExample } from '../apiDescription/examples';
import type { UserExportView } from '../../model/pointsViews';
import { recentSignInAnswer } from '../apiDescription/routeAnswers';

const exampleExport: UserExportView = {
  success: true,
  exportedAt: '2026-11-24T10:00:00.000Z',
  profile: { ...userExample, createdAt: '2026-03-02T08:15:00.000Z', earnedByDay: { '2026-11-23': 70 } },
  account: { email: 'alice@example.com', displayName: 'Alice Demo' },
  ledger: [],
  transactions: [transactionExample],
  redemptions: [],
  notifications: [],
};

/** GET /user/{userId}/export: everything stored about the person, streamed page by page. */
export const exportUserRoute = recentSignInUserRoute({
  method: 'GET',
  path: '/user/:userId/export',
  handler: async ({ params }) => {
    const chunks = await exportUser(params.userId).catch((failure: unknown) => {
      throw answerForUnavailableAuth(failure, { during: 'export' });
    });
    return { body: {}, stream: { contentType: 'application/json', chunks } };
  },
  doc: {
    operationId: 'exportUser',
    summary: "Everything stored about a user (their data's export)",
    description:
      'One JSON document of everything the service stores about the person: the profile (whether a push token is ' +
      'held, never the token), the sign-in account, and every ledger entry, transaction, redemption and ' +
      'notification, each list newest first. Written out as it is read, page by page, so a long history takes ' +
      'longer, never more memory; an answer cut short by a failure is never complete JSON.',
    tag: 'Users',
    responses: {
      200: {
        description: "The user's data",
        schema: ({ UserExport }) => UserExport,
        example: exampleExport,
      },
      401: recentSignInAnswer,
      404: { description: 'No user has this id', codes: ['not-found'] },
      503: {
        description: 'The Auth backend could not be asked for the account; try again after `Retry-After` seconds',
        codes: ['auth-unavailable'],
        headers: ['Retry-After'],
      },
    },
  },
});
