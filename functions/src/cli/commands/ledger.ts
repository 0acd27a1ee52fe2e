/** audit, ledger:backfill: the points books, proven from the ledger and the transactions. */
import { auditBooks } from '../../services/audit';
import { backfillLedger } from '../../services/ledgerBooks';
import { print, type Command } from '../command';
import { CliError } from '../errors';

/** Who opened a balance, as ledger entries record it. */
export const BACKFILL_ACTOR = 'cli:ledger:backfill';

const audit: Command = {
  name: 'audit',
  description:
    "Recomputes every user's currentPoints and totalPoints from the ledger and every kiosk's counters from the " +
    'transactions, page by page. Prints each difference, then "audit: OK (...)" or "audit: DRIFT (...)" (exit 1). ' +
    'Run it once the transaction trigger has caught up (kiosk counters follow a deposit within seconds).',
  flags: {},
  uses: { firestore: true },
  run: async () => {
    const report = await auditBooks();
    for (const difference of report.differences) await print(difference);
    const counts = `${report.users} users, ${report.kiosks} kiosks, ${report.entries} entries, ${report.transactions} transactions`;
    if (report.differences.length > 0) {
      throw new CliError(`audit: DRIFT (${report.differences.length} differences; ${counts})`);
    }
    await print(`audit: OK (${counts})`);
  },
};

const backfill: Command = {
  name: 'ledger:backfill',
  description:
    'Gives every user whose balance predates the ledger (demo data, a database from before the ledger) the ' +
    'opening entries that explain it, once: running it again changes nothing.',
  flags: {},
  uses: { firestore: true },
  run: async () => {
    const { users, opened } = await backfillLedger(BACKFILL_ACTOR);
    await print(`ledger:backfill: ${opened} of ${users} users given opening entries`);
  },
};

export const ledgerCommands: readonly Command[] = [audit, backfill];
