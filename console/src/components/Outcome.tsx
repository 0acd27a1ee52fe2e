import type { Notice } from '../auth';
import type { Loaded } from '../hooks';

/**
 * The live region of a form: `role="status"` for a success, `role="alert"` for a
 * failure (the API's sentence verbatim). Rendered only with a message, so each form
 * has at most one.
 */
export function Outcome({ outcome }: { outcome: Notice | undefined }) {
  if (!outcome) return null;
  return (
    <p role={outcome.kind} class={`outcome outcome-${outcome.kind}`}>
      {outcome.text}
    </p>
  );
}

/**
 * Loaded data's failure, or "Loading…" until its first answer, for the place the data goes
 * (a reload keeps what is shown).
 */
export function LoadState({ of }: { of: Loaded<unknown> }) {
  if (of.error) return <Outcome outcome={{ kind: 'alert', text: of.error }} />;
  return of.loading && !of.data ? <p class="loading">Loading…</p> : null;
}
