/** Loads a list again (what changed on the server since): disabled while it loads. */
export function RefreshButton({ loading, onRefresh }: { loading: boolean; onRefresh: () => void }) {
  return (
    <button type="button" class="secondary" disabled={loading} onClick={onRefresh}>
      Refresh
    </button>
  );
}
