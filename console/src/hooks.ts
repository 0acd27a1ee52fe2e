import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { failureText } from './api';
import type { Notice } from './auth';
import type { Page } from './types';

/**
 * An action of a form: one request at a time (a double-click never sends twice, even
 * before the disabled button is drawn), its outcome for the live region.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Notice | undefined>();
  const inFlight = useRef(false);
  const run = useCallback(async (action: () => Promise<string>): Promise<boolean> => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome({ kind: 'status', text: await action() });
      return true;
    } catch (error) {
      setOutcome({ kind: 'alert', text: failureText(error) });
      return false;
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, outcome, setOutcome, run };
}

export type Action = ReturnType<typeof useAction>;

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Data a page shows, loaded when `deps` change and again on reload(); a late answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: failureText(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on (the closure itself is new on every render).
  }, [...deps, generation]);
  return { ...state, reload: useCallback(() => setGeneration((value) => value + 1), []) };
}

export interface CursorPages<T> extends Loaded<Page<T>> {
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
  /** Back to the first page (after a change, the newest items are there). */
  first: () => void;
}

/**
 * A list the API pages with cursors: the cursors of the pages seen are kept, so
 * "Previous page" goes back without the API having to page backwards.
 */
export function useCursorPages<T>(
  loadPage: (cursor: string | undefined) => Promise<Page<T>>,
  deps: unknown[],
): CursorPages<T> {
  const key = JSON.stringify(deps);
  // The cursors belong to one list: another list (e.g. "Show all alerts" switched) starts from its first page.
  const [pages, setPages] = useState({ key, cursors: [undefined] as (string | undefined)[] });
  const cursors = pages.key === key ? pages.cursors : [undefined];
  const setCursors = (next: (string | undefined)[]) => setPages({ key, cursors: next });
  const cursor = cursors[cursors.length - 1];
  const loaded = useLoad(() => loadPage(cursor), [key, cursor]);
  const nextCursor = loaded.data?.nextCursor ?? null;
  return {
    ...loaded,
    pageNumber: cursors.length,
    hasPrevious: cursors.length > 1,
    hasNext: nextCursor !== null && !loaded.loading,
    previous: () => setCursors(cursors.slice(0, -1)),
    next: () => nextCursor !== null && setCursors([...cursors, nextCursor]),
    first: () => (cursors.length > 1 ? setCursors([undefined]) : loaded.reload()),
  };
}
