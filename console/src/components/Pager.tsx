/** The "Previous page" / "Next page" pair under a paged list. */
export function Pager(props: {
  label: string;
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
}) {
  return (
    <div class="pager" role="group" aria-label={`${props.label} pages`}>
      <button type="button" class="secondary" disabled={!props.hasPrevious} onClick={props.previous}>
        Previous page
      </button>
      <span>Page {props.pageNumber}</span>
      <button type="button" class="secondary" disabled={!props.hasNext} onClick={props.next}>
        Next page
      </button>
    </div>
  );
}
