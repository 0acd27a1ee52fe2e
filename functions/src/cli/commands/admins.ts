/** admin:create, admin:grant, admin:revoke: operator accounts and the admin custom claim. */
import { randomBytes } from 'node:crypto';
import { auth, describeAccount, findAccount, findAccountByEmail, revokeAdmin, setAdminClaim } from '../accounts';
import { print, type Command } from '../command';
import { CliError } from '../errors';

/**
 * The first operator of a new project (contract, Part four): nothing else makes an
 * account, and admin:grant needs one. The password is generated, printed once and
 * stored nowhere else; no mail is sent, so it works before SMTP is set up (to choose
 * another, the Firebase console's password reset mails Firebase's own link). An
 * address that has an account already is refused, never changed: its owner keeps
 * their password, and admin:grant gives it the claim.
 */
const adminCreate: Command = {
  name: 'admin:create',
  description:
    'Creates an e-mail/password account with the custom claim admin: true (the first operator of a new project) ' +
    'and prints its generated password, once: sign in to the console with it, then set your own. Refuses an ' +
    'address that has an account already: give that one the claim with admin:grant.',
  example: 'npm run admin -- --project kiosk-rewards-prod admin:create --email you@example.com',
  flags: { email: { value: 'EMAIL', description: "the operator's e-mail address", required: true } },
  uses: { auth: true },
  run: async (flags) => {
    const email = flags.required('email');
    const refused = () =>
      new CliError(`${email} has an account already: give it the claim with admin:grant --email ${email}`);
    const refusedAddress = (error: unknown): never => {
      const code = (error as { code?: unknown }).code;
      if (code === 'auth/email-already-exists') throw refused();
      if (code === 'auth/invalid-email') throw new CliError(`--email: ${email} is not an e-mail address`);
      throw error;
    };
    if (await findAccountByEmail(email).catch(refusedAddress)) throw refused();
    // 18 random bytes: 24 characters of base64url, 144 bits.
    const password = randomBytes(18).toString('base64url');
    const account = await auth().createUser({ email, password }).catch(refusedAddress);
    await setAdminClaim(account, true);
    await print(
      `${describeAccount(account)} is created and is an admin.\n` +
        `Password (shown this once, stored nowhere): ${password}\n` +
        'Sign in to the console with it. To choose another: Firebase console > Authentication > Users > ' +
        'Reset password (Firebase mails its own reset link).',
    );
  },
};

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

export const adminCommands: readonly Command[] = [adminCreate, adminClaim(true), adminClaim(false)];
