import { eraseUser } from '../../services/erasure';
import { recentSignInUserRoute } from '../accessRoutes';
import { answerForUnavailableAuth } from '../auth';
import { overloadedAnswer, recentSignInAnswer } from '../apiDescription/routeAnswers';

/** DELETE /user/{userId}: the person erased, their books kept (contract §15). */
export const eraseUserRoute = recentSignInUserRoute({
  method: 'DELETE',
  path: '/user/:userId',
  handler: async ({ params, caller }) => {
    await eraseUser(params.userId, caller.uid).catch((failure: unknown) => {
      throw answerForUnavailableAuth(failure, { during: 'erasure' });
    });
    return { body: { success: true } };
  },
  doc: {
    operationId: 'eraseUser',
    summary: 'Erase a user',
    description:
      'Deletes the Firebase Auth account, the name, the push token and every notification. The ledger entries, ' +
      'transactions and redemptions are kept for the books under the bare user id, which no longer leads to a ' +
      'person; a remaining balance is written off by a `forfeit` ledger entry. Afterwards every other route of ' +
      'this user and every new transaction for the id answer 404, and the id is never given a profile again. ' +
      'Erasing an erased user again answers 200 and changes nothing (it completes an erasure that was cut short).',
    tag: 'Users',
    responses: {
      200: {
        description: 'Erased',
        schema: ({ successBody }) => successBody({}),
        example: { success: true },
      },
      401: recentSignInAnswer,
      404: { description: 'No user has this id', codes: ['not-found'] },
      503: {
        description:
          'The Auth backend could not be reached (`auth-unavailable`), or what the erasure writes was contended ' +
          'for too long (`overloaded`); try again after `Retry-After` seconds',
        codes: ['auth-unavailable', ...overloadedAnswer.codes],
        headers: ['Retry-After'],
      },
    },
  },
});
