import fc from 'fast-check';
import {
  MAX_REPORT_DAYS,
  addToDay,
  byDayThenKiosk,
  kioskDaysCsv,
  parseDay,
  reportRange,
  type KioskDayFigures,
  type KioskDayRow,
} from '../../src/domain/kioskDays';
import { utcDay } from '../../src/domain/rewards';
import { textTable } from '../../src/cli/table';
import { apiErrorOf } from './api-error';

describe('days', () => {
  test('the UTC day of an instant, whatever the local offset it was written with', () => {
    expect(utcDay(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(utcDay(new Date('2026-11-24T00:30:00+01:00'))).toBe('2026-11-23');
    expect(utcDay(new Date('2026-11-23T22:30:00-02:00'))).toBe('2026-11-24');
  });

  test.each(['2026-11-23', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])('%s is a day', (text) => {
    expect(parseDay(text)?.toISOString()).toBe(`${text}T00:00:00.000Z`);
  });

  test.each([
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-11-00',
    '2026-1-1',
    '20261123',
    '2026-11-23T00:00:00Z',
    ' 2026-11-23',
    '',
    '+02026-11-23',
  ])('%p is no day', (text) => {
    expect(parseDay(text)).toBeUndefined();
  });

  test('every day of 400 years reads back as itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 146_096 }), (offset) => {
        const day = utcDay(new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000));
        expect(parseDay(day) && utcDay(parseDay(day)!)).toBe(day);
      }),
    );
  });
});

describe('the report range', () => {
  test('from and to, both included, up to 92 days', () => {
    expect(reportRange({ from: '2026-11-23', to: '2026-11-23' })).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(reportRange({ from: '2026-01-01', to: '2026-04-02' })).toEqual({ from: '2026-01-01', to: '2026-04-02' });
    expect(MAX_REPORT_DAYS).toBe(92);
  });

  test.each([
    [{ to: '2026-11-23' }, 'from is required'],
    [{ from: '2026-11-23' }, 'to is required'],
    [{ from: '2026-11-31', to: '2026-12-01' }, 'from must be a calendar day as YYYY-MM-DD'],
    [{ from: '2026-11-01', to: 'tomorrow' }, 'to must be a calendar day as YYYY-MM-DD'],
    [{ from: '2026-11-02', to: '2026-11-01' }, 'to must not be before from'],
    [{ from: '2026-01-01', to: '2026-04-03' }, 'to must be within 92 days of from'],
    [{ from: '2025-12-31', to: '2026-12-31' }, 'to must be within 92 days of from'],
  ])('%p: 400 naming the parameter', (query, message) => {
    const error = apiErrorOf(() => reportRange(query));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid-argument');
    expect(error.message).toContain(message);
  });

  test('the 92 days across a leap day and a year end', () => {
    expect(() => reportRange({ from: '2023-12-31', to: '2024-03-31' })).not.toThrow();
    expect(() => reportRange({ from: '2023-12-31', to: '2024-04-01' })).toThrow(/within 92 days/);
  });
});

const ONE = { transactions: 1, plasticCount: 2, metalCount: 1, points: 40 };
const row = (kioskId: string, day: string, figures: KioskDayFigures = ONE): KioskDayRow => ({
  kioskId,
  day,
  ...figures,
});

describe('rows', () => {
  test('sorted by day, then kiosk id', () => {
    const rows = [row('b', '2026-11-23'), row('a', '2026-11-24'), row('a', '2026-11-23'), row('B', '2026-11-23')];
    expect(rows.sort(byDayThenKiosk).map((r) => `${r.day} ${r.kioskId}`)).toEqual([
      '2026-11-23 B',
      '2026-11-23 a',
      '2026-11-23 b',
      '2026-11-24 a',
    ]);
  });

  test('figures add up per day', () => {
    const days = new Map<string, KioskDayFigures>();
    addToDay(days, '2026-11-23', ONE);
    addToDay(days, '2026-11-22', ONE);
    addToDay(days, '2026-11-23', { transactions: 1, plasticCount: 0, metalCount: 5, points: 0 });
    expect(Object.fromEntries(days)).toEqual({
      '2026-11-22': ONE,
      '2026-11-23': { transactions: 2, plasticCount: 2, metalCount: 6, points: 40 },
    });
  });
});

describe('CSV', () => {
  test('a header line, then one CRLF-ended line per row', () => {
    expect(
      kioskDaysCsv([row('berlin', '2026-11-23', { transactions: 3, plasticCount: 6, metalCount: 3, points: 120 })]),
    ).toBe('kioskId,day,transactions,plasticCount,metalCount,points\r\nberlin,2026-11-23,3,6,3,120\r\n');
    expect(kioskDaysCsv([])).toBe('kioskId,day,transactions,plasticCount,metalCount,points\r\n');
  });

  test('kiosk ids with commas, quotes or line breaks are quoted (RFC 4180)', () => {
    expect(kioskDaysCsv([row('a,b', '2026-11-23'), row('say "hi"', '2026-11-23'), row('x\ny', '2026-11-23')])).toBe(
      'kioskId,day,transactions,plasticCount,metalCount,points\r\n' +
        '"a,b",2026-11-23,1,2,1,40\r\n' +
        '"say ""hi""",2026-11-23,1,2,1,40\r\n' +
        '"x\ny",2026-11-23,1,2,1,40\r\n',
    );
  });
});

describe('CSV never carries a formula', () => {
  test('a text cell starting with =, +, -, @, a tab or a CR gets a leading quote', () => {
    const ids = ['=HYPERLINK("http://x")', '+1', '-x', '@SUM(A1)', '\tcmd', '\rcmd', 'plain=ok'];
    expect(kioskDaysCsv(ids.map((id) => row(id, '2026-11-23')))).toBe(
      'kioskId,day,transactions,plasticCount,metalCount,points\r\n' +
        '"\'=HYPERLINK(""http://x"")",2026-11-23,1,2,1,40\r\n' +
        "'+1,2026-11-23,1,2,1,40\r\n" +
        "'-x,2026-11-23,1,2,1,40\r\n" +
        "'@SUM(A1),2026-11-23,1,2,1,40\r\n" +
        "'\tcmd,2026-11-23,1,2,1,40\r\n" +
        '"\'\rcmd",2026-11-23,1,2,1,40\r\n' +
        'plain=ok,2026-11-23,1,2,1,40\r\n',
    );
  });

  test('numbers are numbers: a negative figure is written as it is', () => {
    expect(
      kioskDaysCsv([row('k', '2026-11-23', { transactions: 1, plasticCount: 0, metalCount: 0, points: -40 })]),
    ).toBe('kioskId,day,transactions,plasticCount,metalCount,points\r\nk,2026-11-23,1,0,0,-40\r\n');
  });
});

describe('the CLI table', () => {
  test('columns padded to their widest cell, numbers right-aligned', () => {
    expect(
      textTable(
        ['KIOSK', 'DAY', 'POINTS'],
        [
          ['berlin', '2026-11-23', 40],
          ['a', '', 12345],
        ],
      ),
    ).toBe(['KIOSK   DAY         POINTS', 'berlin  2026-11-23      40', 'a                    12345'].join('\n'));
  });
});
