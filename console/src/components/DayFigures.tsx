import { useMemo } from 'preact/hooks';
import { daysBetween, formatNumber } from '../format';
import type { KioskDay } from '../types';
import { Chart, type ChartSeries } from './Chart';
import { DataTable, type Column } from './DataTable';

const numeric = (header: string, value: (row: KioskDay) => number): Column<KioskDay> => ({
  header,
  cell: (row) => formatNumber(value(row)),
  sortValue: value,
  numeric: true,
});

const figureColumns: Column<KioskDay>[] = [
  numeric('Transactions', (row) => row.transactions),
  numeric('Plastic', (row) => row.plasticCount),
  numeric('Metal', (row) => row.metalCount),
  numeric('Items', (row) => row.plasticCount + row.metalCount),
  numeric('Points', (row) => row.points),
];
const dayColumn: Column<KioskDay> = {
  header: 'Day',
  cell: (row) => row.day,
  sortValue: (row) => row.day,
  rowHeader: true,
};
const kioskColumn: Column<KioskDay> = { header: 'Kiosk', cell: (row) => row.kioskId, sortValue: (row) => row.kioskId };

/** Every day of the range, summed over the kiosks; the API leaves days without transactions out. */
function totalsPerDay(rows: KioskDay[], from: string, to: string): KioskDay[] {
  const totals = new Map(
    daysBetween(from, to).map((day) => [
      day,
      { kioskId: '', day, transactions: 0, plasticCount: 0, metalCount: 0, points: 0 },
    ]),
  );
  for (const row of rows) {
    const total = totals.get(row.day);
    if (!total) continue;
    total.transactions += row.transactions;
    total.plasticCount += row.plasticCount;
    total.metalCount += row.metalCount;
    total.points += row.points;
  }
  return [...totals.values()];
}

/**
 * The daily figures of GET /admin/reports/kiosk-days: a chart of transactions, items
 * and points per day, and the same figures as a table (per kiosk too, with `perKiosk`).
 */
export function DayFigures(props: {
  caption: string;
  rows: KioskDay[];
  from: string;
  to: string;
  perKiosk: boolean;
  /** The table folded in a <details>: the chart is what most people read. */
  collapsed: boolean;
}) {
  const { caption, rows, from, to, perKiosk } = props;
  const totals = useMemo(() => totalsPerDay(rows, from, to), [rows, from, to]);
  // The chart draws again whenever its days or series change: both stay the same arrays until the figures do.
  const days = useMemo(() => totals.map((day) => day.day), [totals]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Transactions', values: totals.map((day) => day.transactions), color: '#0b57d0' },
      { label: 'Items', values: totals.map((day) => day.plasticCount + day.metalCount), color: '#1e7b34' },
      { label: 'Points', values: totals.map((day) => day.points), color: '#b3261e', rightAxis: true },
    ],
    [totals],
  );
  const table = (
    <DataTable
      caption={caption}
      columns={perKiosk ? [dayColumn, kioskColumn, ...figureColumns] : [dayColumn, ...figureColumns]}
      rows={perKiosk ? rows : totals}
      rowKey={(row) => `${row.day} ${row.kioskId}`}
      empty="No transactions in this range."
    />
  );
  return (
    <>
      <Chart label={`${caption} chart: transactions, items and points per day`} days={days} series={series} />
      {props.collapsed ? (
        <details>
          <summary>The figures as a table</summary>
          {table}
        </details>
      ) : (
        table
      )}
    </>
  );
}
