import type { Notice } from '../auth';

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

/** A list's loading state or failure, for the place the list goes. */
export function LoadState({ loading, error }: { loading: boolean; error: string | undefined }) {
  if (error) return <Outcome outcome={{ kind: 'alert', text: error }} />;
  return loading ? <p class="loading">Loading…</p> : null;
}
