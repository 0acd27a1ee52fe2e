import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { capitalized } from '../format';
import { useCursorPages, type CursorPages } from '../hooks';
import { CursorTable, PAGE_SIZE, type Column } from './DataTable';
import { CheckField } from './Field';
import { RefreshButton } from './RefreshButton';

/** The lists the API keeps open until someone acts (alerts, holds): its path under /admin and its answer's field. */
type Noun = 'alerts' | 'holds';

export interface OpenOrAll<T> {
  noun: Noun;
  all: boolean;
  setAll: (all: boolean) => void;
  pages: CursorPages<T>;
}

/** `GET /admin/<noun>`, newest first: the open ones, or with `all` every one; paged with cursors. */
export function useOpenOrAll<T>(noun: Noun): OpenOrAll<T> {
  const [all, setAll] = useState(false);
  const pages = useCursorPages(
    (cursor) =>
      api<{ [list in Noun]?: T[] } & { nextCursor: string | null }>(`/admin/${noun}`, {
        query: { state: all ? 'all' : 'open', limit: PAGE_SIZE, cursor },
      }).then((answer) => ({ items: answer[noun] ?? [], nextCursor: answer.nextCursor })),
    [noun, all],
  );
  return { noun, all, setAll, pages };
}

/**
 * Such a list: "Show all …" and Refresh, a hint of what it shows (`hints`), `children` (e.g. the dialog that acts on
 * a row, with its outcome), then the table.
 */
export function OpenOrAllTable<T>(props: {
  list: OpenOrAll<T>;
  hints: { open: string; all: string };
  columns: Column<T>[];
  rowKey: keyof T;
  children?: ComponentChildren;
}) {
  const { noun, all, setAll, pages } = props.list;
  return (
    <>
      <div class="filters">
        <CheckField label={`Show all ${noun}`} checked={all} onChecked={setAll} />
        <RefreshButton loading={pages.loading} onRefresh={pages.first} />
      </div>
      <p class="hint">{all ? props.hints.all : props.hints.open}</p>
      {props.children}
      <CursorTable
        caption={capitalized(noun)}
        columns={props.columns}
        pages={pages}
        rowKey={props.rowKey}
        empty={all ? `No ${noun}.` : `No open ${noun}.`}
      />
    </>
  );
}
