import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { CursorPages, Loaded } from '../hooks';
import { LoadState } from './Outcome';
import { Pager } from './Pager';

/** The rows a page of a list shows, whether the API pages it or the browser does. */
export const PAGE_SIZE = 25;

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  /** Sortable by this value: the header becomes a button. */
  sortValue?: (row: T) => string | number;
  /** The cell that names the row, read out as the row's header. */
  rowHeader?: boolean;
  numeric?: boolean;
}

type Sort = { column: number; direction: 'ascending' | 'descending' } | undefined;

interface TableProps<T> {
  caption: string;
  columns: Column<T>[];
  /** What names a row uniquely: one of its fields (e.g. `id`), or a key made of several. */
  rowKey: keyof T | ((row: T) => string);
  /** What the table says when it has no row. */
  empty: string;
}

/**
 * A list the API answers whole (e.g. the partners, a short list): its loading state or
 * failure, then the table, paged in the browser.
 */
export function ListTable<T>({ list, ...table }: TableProps<T> & { list: Loaded<T[]> }) {
  return (
    <>
      <LoadState of={list} />
      {list.data && <DataTable {...table} rows={list.data} pageSize={PAGE_SIZE} />}
    </>
  );
}

/** A list the API pages with cursors: its loading state or failure, the table of the page, and the pager. */
export function CursorTable<T>({ pages, ...table }: TableProps<T> & { pages: CursorPages<T> }) {
  return (
    <>
      <LoadState of={pages} />
      {pages.data && <DataTable {...table} rows={pages.data.items} />}
      <Pager label={table.caption} {...pages} />
    </>
  );
}

/**
 * A table with a caption and header scopes; sortable columns (a button in the header,
 * `aria-sort` on it); with `pageSize`, paged in the browser (lists the API gives whole).
 */
export function DataTable<T>(props: TableProps<T> & { rows: T[]; pageSize?: number }) {
  const { caption, columns, rows, rowKey, pageSize } = props;
  const keyOf = (row: T): string => (typeof rowKey === 'function' ? rowKey(row) : String(row[rowKey]));
  const [sort, setSort] = useState<Sort>();
  const [pageIndex, setPageIndex] = useState(0);
  const sorted = sortRows(rows, columns, sort);
  const pageCount = pageSize ? Math.max(1, Math.ceil(sorted.length / pageSize)) : 1;
  const page = Math.min(pageIndex, pageCount - 1);
  const shown = pageSize ? sorted.slice(page * pageSize, (page + 1) * pageSize) : sorted;

  const sortBy = (column: number) => {
    setSort(
      sort?.column === column && sort.direction === 'ascending'
        ? { column, direction: 'descending' }
        : { column, direction: 'ascending' },
    );
    setPageIndex(0);
  };

  return (
    <>
      {/* Focusable: a table wider than a phone scrolls, and keyboard users scroll it with the arrows. */}
      <div class="table-scroll" tabIndex={0}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th
                  key={column.header}
                  scope="col"
                  class={column.numeric ? 'numeric' : undefined}
                  aria-sort={column.sortValue ? (sort?.column === index ? sort.direction : 'none') : undefined}
                >
                  {column.sortValue ? (
                    <button type="button" class="sort" onClick={() => sortBy(index)}>
                      {column.header}
                      <span aria-hidden="true">
                        {sort?.column === index ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ' ↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={columns.length}>{props.empty}</td>
              </tr>
            )}
            {shown.map((row) => (
              <tr key={keyOf(row)}>
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th key={column.header} scope="row">
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.header} class={column.numeric ? 'numeric' : undefined}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageSize !== undefined && (
        <Pager
          label={caption}
          pageNumber={page + 1}
          hasPrevious={page > 0}
          hasNext={page < pageCount - 1}
          previous={() => setPageIndex(page - 1)}
          next={() => setPageIndex(page + 1)}
        />
      )}
    </>
  );
}

function sortRows<T>(rows: T[], columns: Column<T>[], sort: Sort): T[] {
  const value = sort && columns[sort.column].sortValue;
  if (!sort || !value) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = value(a);
    const right = value(b);
    return (
      sign *
      (typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right)))
    );
  });
}
