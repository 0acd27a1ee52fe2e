/** user:export, user:delete, users:sweep: a person's data given back or erased (contract §15), as the API does. */
import { once } from 'node:events';
import { eraseUser } from '../../services/erasure';
import { exportUser } from '../../services/userExport';
import { runUsersSweep } from '../../triggers/usersSweep';
import { printJson, type Command } from '../command';
import { cliActor } from './points';

/** A command about one user, named by --uid; like the user's own routes, it reaches Firestore and Auth. */
const userCommand = (command: Omit<Command, 'flags' | 'uses'>): Command => ({
  ...command,
  flags: { uid: { value: 'ID', description: 'the user id (their Firebase Auth uid)', required: true } },
  uses: { firestore: true, auth: true },
});

const userExport = userCommand({
  name: 'user:export',
  description:
    'Writes everything stored about the user to stdout as JSON, exactly what GET /user/{id}/export answers: the ' +
    'profile, the sign-in account, and every ledger entry, transaction, redemption and notification, read page ' +
    'by page.',
  example: 'npm run admin -- user:export --uid demo-alice > alice.json',
  run: async (flags) => {
    for await (const chunk of await exportUser(flags.required('uid'))) {
      if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    }
    process.stdout.write('\n');
  },
});

const userDelete = userCommand({
  name: 'user:delete',
  description:
    'Erases the user as DELETE /user/{id} does: deletes the Auth account, the name, the push token and every ' +
    'notification, keeps the ledger, transactions and redemptions under the bare id and writes the balance off ' +
    'with a `forfeit` entry (by cli:<your OS account>). The id is refused afterwards and never provisioned ' +
    'again. Running it again changes nothing. Prints { userId, accountDeleted, forfeited } as JSON.',
  example: 'npm run admin -- user:delete --uid demo-alice',
  run: async (flags) => {
    await printJson(await eraseUser(flags.required('uid'), cliActor()));
  },
});

const usersSweep: Command = {
  name: 'users:sweep',
  description:
    'Runs the users sweep once, as the scheduled function does every day: erases (as user:delete does) every ' +
    'profile made for an Auth account whose account is gone (deleted in the Firebase console), looking accounts ' +
    'up 100 at a time. Profiles never made for an account (seeded data) are left alone. Prints { profiles, ' +
    'checked, erased } as JSON.',
  flags: {},
  uses: { firestore: true, auth: true },
  run: async () => {
    await printJson(await runUsersSweep());
  },
};

export const peopleCommands: readonly Command[] = [userExport, userDelete, usersSweep];
