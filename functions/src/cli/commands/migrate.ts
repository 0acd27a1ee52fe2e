/** migrate: converts what older versions stored into the forms this version reads. */
import { migrate } from '../../services/migration';
import { note, printJson, type Command } from '../command';
import { CliError, UsageError } from '../errors';

const DEFAULT_PAGE_SIZE = 500;

const migrateCommand: Command = {
  name: 'migrate',
  description:
    'Converts the data of older versions into the forms this version reads, page by page: deletes the 24-hour ' +
    "idempotency records (idempotency/) whose day has passed, merges users' earnedToday into earnedByDay, and " +
    'gives transactions recorded before occurredAt existed the time they were recorded, users without ' +
    'pointsByMonth their balance as added this month (so that it can expire), voucher codes issued before their ' +
    'lookup documents one, and marks the profiles whose Auth account exists (authAccount: the users sweep erases ' +
    'them once it is deleted; accounts looked up 100 at a time), and moves the fields only the service reads ' +
    "(submissionId, requestFingerprint, a voucher's use) off ledger entries and redemptions, which their user " +
    'reads, into requestRecords/ and voucherUses/. A dry run unless --apply: ' +
    'prints what it would change as JSON and writes nothing. Running it again after --apply changes nothing. Exit 1 ' +
    'after --apply while a 24-hour record is still live (it cannot be converted): run it again after `liveUntil`, ' +
    'before this version serves.',
  example: 'npm run admin -- migrate && npm run admin -- migrate --apply',
  flags: {
    apply: { description: 'write the changes (without it: a dry run)' },
    'page-size': { value: 'N', description: `documents read per page (default ${DEFAULT_PAGE_SIZE})` },
  },
  uses: { firestore: true, auth: true },
  run: async (flags) => {
    const pageSize = Number(flags.get('page-size') ?? DEFAULT_PAGE_SIZE);
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > DEFAULT_PAGE_SIZE) {
      throw new UsageError(`--page-size must be a whole number from 1 to ${DEFAULT_PAGE_SIZE}`);
    }
    const apply = flags.has('apply');
    const report = await migrate({ apply, pageSize });
    await printJson({ applied: apply, ...report });
    const changes =
      report.expiredIdempotencyRecords +
      report.earnedToday +
      report.transactionsWithoutOccurredAt +
      report.usersWithoutPointsByMonth +
      report.voucherCodesIndexed +
      report.profilesMarkedWithAccount +
      report.pushTokensIndexed +
      report.promotionShardsRenamed +
      report.activePromotionsListed +
      report.internalFieldsMoved;
    if (!apply) await note(`migrate: dry run, nothing written; ${changes} changes to make (--apply makes them)`);
    else await note(`migrate: ${changes} changes made`);
    if (report.liveIdempotencyRecords > 0) {
      const live = `${report.liveIdempotencyRecords} 24-hour idempotency records are live until ${report.liveUntil}`;
      if (apply)
        throw new CliError(`migrate: ${live}; run migrate --apply again after that, before this version serves`);
      await note(`migrate: ${live}; --apply can retire them only after that`);
    }
  },
};

export const migrateCommands: readonly Command[] = [migrateCommand];
