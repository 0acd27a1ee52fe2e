/** admin:grant, admin:revoke: the admin custom claim. */
import { describeAccount, findAccount, revokeAdmin, setAdminClaim } from '../accounts';
import { print, type Command } from '../command';

const adminClaim = (admin: boolean): Command => ({
  name: admin ? 'admin:grant' : 'admin:revoke',
  description: admin
    ? 'Sets the custom claim admin: true (other claims are kept).'
    : "Removes the custom claim admin: true (other claims are kept) and revokes the account's tokens: " +
      'its rights end at once, and it is signed out everywhere.',
  flags: {
    email: { value: 'EMAIL', description: "the account's e-mail address" },
    uid: { value: 'UID', description: "the account's uid" },
  },
  oneOf: ['email', 'uid'],
  uses: { auth: true },
  run: async (flags) => {
    const account = await findAccount(flags.oneOf('email', 'uid'));
    await (admin ? setAdminClaim(account, true) : revokeAdmin(account));
    await print(
      admin
        ? `${describeAccount(account)} is now an admin. ID tokens issued from now on carry the claim; ` +
            'a signed-in app sees it once its token refreshes (within the hour, or at once with getIdToken(true)).'
        : `${describeAccount(account)} is no longer an admin. Its tokens are revoked: /admin/* and /notify/* ` +
            'refuse them at once, and the account must sign in again everywhere.',
    );
  },
});

export const adminCommands: readonly Command[] = [adminClaim(true), adminClaim(false)];
