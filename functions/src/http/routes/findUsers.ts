import { usersWithEmail } from '../../services/userLookup';
import { adminRoute } from '../accessRoutes';
import { answerForUnavailableAuth } from '../auth';
import { userExample } from '../apiDescription/examples';
import { assertEmailAddress } from '../validation';

/** GET /admin/users?email=: the user with this e-mail address, if any. */
export const findUsersRoute = adminRoute({
  method: 'GET',
  path: '/admin/users',
  query: {
    email: {
      description: "The address of the user's sign-in account; case is ignored",
      schema: ({ emailAddress }) => emailAddress,
      required: true,
    },
  },
  handler: async ({ query }) => {
    const email = assertEmailAddress(query.email, 'email');
    const users = await usersWithEmail(email).catch((failure: unknown) => {
      throw answerForUnavailableAuth(failure, { during: 'user-lookup' });
    });
    return { body: { success: true, users } };
  },
  doc: {
    operationId: 'findUsers',
    summary: 'Find a user by e-mail address',
    description:
      'The user whose Firebase Auth account has this address, as `GET /user/{userId}` shows them: an exact match ' +
      'on the address as Auth stores it (lower-cased; nothing else is changed, so `a+news@` and `a@` are two ' +
      'addresses). At most one user; none when no account has the address or its account has no profile yet.',
    tag: 'Administration',
    responses: {
      200: {
        description: 'The user with this address, or none',
        schema: ({ Type, successBody, User }) => successBody({ users: Type.Array(User, { maxItems: 1 }) }),
        example: { success: true, users: [userExample] },
      },
      400: {
        description: '`email` is missing, blank, too long or not an e-mail address',
        codes: ['invalid-argument'],
      },
      503: {
        description: 'The Auth backend could not be asked for the address; try again after `Retry-After` seconds',
        codes: ['auth-unavailable'],
        headers: ['Retry-After'],
      },
    },
  },
});
