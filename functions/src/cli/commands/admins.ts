/** admin:grant, admin:revoke: the admin custom claim. */
import { describeAccount, findAccount, setAdminClaim } from '../accounts';
import { print, type Command } from '../command';

const adminClaim = (admin: boolean): Command => ({
  name: admin ? 'admin:grant' : 'admin:revoke',
  description: `${admin ? 'Sets' : 'Removes'} the custom claim admin: true (other claims are kept).`,
  flags: {
    email: { value: 'EMAIL', description: "the account's e-mail address" },
    uid: { value: 'UID', description: "the account's uid" },
  },
  oneOf: ['email', 'uid'],
  uses: { auth: true },
  run: async (flags) => {
    const account = await findAccount(flags.oneOf('email', 'uid'));
    await setAdminClaim(account, admin);
    await print(
      admin
        ? `${describeAccount(account)} is now an admin. ID tokens issued from now on carry the claim; ` +
            'a signed-in app sees it once its token refreshes (within the hour, or at once with getIdToken(true)).'
        : `${describeAccount(account)} is no longer an admin. ID tokens issued before now keep the claim ` +
            'until they expire (within the hour).',
    );
  },
});

export const adminCommands: readonly Command[] = [adminClaim(true), adminClaim(false)];
