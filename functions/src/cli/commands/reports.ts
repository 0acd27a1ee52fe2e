/** report:kiosk-days: the daily report of GET /admin/reports/kiosk-days, as a table or CSV. */
import { listKioskDays } from '../../data/kioskDays';
import { assertDocumentId } from '../../domain/ids';
import { MAX_REPORT_DAYS, kioskDaysCsv, reportRange } from '../../domain/kioskDays';
import { note, print, type Command } from '../command';
import { textTable } from '../table';

const kioskDaysReport: Command = {
  name: 'report:kiosk-days',
  description:
    "Each kiosk's transactions, items and points per UTC day of the deposits, from --from to --to (both " +
    `included, at most ${MAX_REPORT_DAYS} days), as GET /admin/reports/kiosk-days answers them: a table with ` +
    'a total line, or CSV with --csv. Days without transactions are left out.',
  example: 'npm run admin -- report:kiosk-days --from 2026-11-01 --to 2026-11-30 --csv > november.csv',
  flags: {
    from: { value: 'YYYY-MM-DD', description: 'the first UTC day', required: true },
    to: { value: 'YYYY-MM-DD', description: 'the last UTC day', required: true },
    kiosk: { value: 'ID', description: 'only this kiosk' },
    csv: { description: 'CSV (RFC 4180, a header line) instead of the table' },
  },
  uses: { firestore: true },
  run: async (flags) => {
    const { from, to } = reportRange({ from: flags.get('from'), to: flags.get('to') });
    const kiosk = flags.get('kiosk');
    const rows = await listKioskDays(from, to, kiosk === undefined ? undefined : assertDocumentId(kiosk, 'kiosk'));
    if (flags.has('csv')) {
      await print(kioskDaysCsv(rows));
      return;
    }
    if (rows.length === 0) {
      await note(`No transactions from ${from} to ${to}${kiosk === undefined ? '' : ` at kiosk ${kiosk}`}.`);
      return;
    }
    const sum = (field: 'transactions' | 'plasticCount' | 'metalCount' | 'points') =>
      rows.reduce((total, row) => total + row[field], 0);
    await print(
      textTable(
        ['KIOSK', 'DAY', 'TRANSACTIONS', 'PLASTIC', 'METAL', 'POINTS'],
        [
          ...rows.map((row) => [row.kioskId, row.day, row.transactions, row.plasticCount, row.metalCount, row.points]),
          ['total', '', sum('transactions'), sum('plasticCount'), sum('metalCount'), sum('points')],
        ],
      ),
    );
  },
};

export const reportCommands: readonly Command[] = [kioskDaysReport];
