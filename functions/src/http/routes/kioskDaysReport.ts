import { listKioskDays } from '../../data/kioskDays';
import { assertDocumentId } from '../../domain/ids';
import { MAX_REPORT_DAYS, kioskDaysCsv, reportRange, type KioskDayRow } from '../../domain/kioskDays';
import { badRequest } from '../../errors';
import { adminRoute } from '../accessRoutes';

const FORMATS = ['json', 'csv'];

const exampleRows: KioskDayRow[] = [
  {
    kioskId: 'berlin-alexanderplatz',
    day: '2026-11-22',
    transactions: 412,
    plasticCount: 1630,
    metalCount: 702,
    points: 30340,
  },
  {
    kioskId: 'munich-marienplatz',
    day: '2026-11-22',
    transactions: 198,
    plasticCount: 744,
    metalCount: 301,
    points: 13460,
  },
  {
    kioskId: 'berlin-alexanderplatz',
    day: '2026-11-23',
    transactions: 57,
    plasticCount: 230,
    metalCount: 96,
    points: 4220,
  },
];

/** GET /admin/reports/kiosk-days: each kiosk's figures per UTC day, as JSON or CSV. */
export const kioskDaysReportRoute = adminRoute({
  method: 'GET',
  path: '/admin/reports/kiosk-days',
  query: {
    from: {
      description: 'The first UTC day of the report, YYYY-MM-DD',
      schema: ({ Type }) => Type.String({ format: 'date' }),
      required: true,
    },
    to: {
      description: `The last UTC day of the report, YYYY-MM-DD: not before \`from\`, at most ${MAX_REPORT_DAYS} days in all`,
      schema: ({ Type }) => Type.String({ format: 'date' }),
      required: true,
    },
    kioskId: {
      description: 'Only this kiosk (a kiosk id: no "/", not "." or "..", not "__…__")',
      schema: ({ id }) => id,
    },
    format: { description: '`json` (the default) or `csv`', schema: ({ stringEnum }) => stringEnum(FORMATS) },
  },
  handler: async ({ query }) => {
    const { from, to } = reportRange(query);
    const kioskId = query.kioskId === undefined ? undefined : assertDocumentId(query.kioskId, 'kioskId');
    if (query.format !== undefined && !FORMATS.includes(query.format)) throw badRequest('format must be json or csv');
    const rows = await listKioskDays(from, to, kioskId);
    if (query.format !== 'csv') return { body: { success: true, rows } };
    return { body: {}, text: { contentType: 'text/csv; charset=utf-8', content: kioskDaysCsv(rows) } };
  },
  doc: {
    operationId: 'getKioskDaysReport',
    summary: 'Daily report per kiosk',
    description:
      'Per kiosk and UTC day of `occurredAt` (when the kiosk took the deposits, possibly while offline): the ' +
      'transactions, items and points recorded, sorted by day, then kiosk id. Days without transactions are ' +
      'left out. The figures are the transaction documents summed exactly; a transaction recorded in the last ' +
      'seconds may not be counted yet. With `format=csv` the same rows as CSV with a header line.',
    tag: 'Administration',
    responses: {
      200: {
        description: 'The rows, by day, then kiosk id',
        schema: ({ Type, successBody, KioskDay }) => successBody({ rows: Type.Array(KioskDay) }),
        example: { success: true, rows: exampleRows },
        text: {
          mediaType: 'text/csv',
          description:
            'With `format=csv`: RFC 4180, CRLF line ends, the header line ' +
            '`kioskId,day,transactions,plasticCount,metalCount,points`, then one line per row',
          example: kioskDaysCsv(exampleRows),
        },
      },
      400: {
        description:
          `\`from\` or \`to\` missing or not a calendar day, \`to\` before \`from\`, more than ${MAX_REPORT_DAYS} ` +
          'days, a `kioskId` that is no kiosk id, or a `format` other than `json` or `csv`',
        codes: ['invalid-argument'],
      },
    },
  },
});
