import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal dialog: the native <dialog> with showModal() traps the focus, makes the page
 * behind it inert and closes on Escape. Shown while `open`; `onClose` on Escape.
 */
export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={headingId}>{props.title}</h2>
      {/* Only while open: the fields of a closed dialog would share labels with the page's own. */}
      {props.open && props.children}
    </dialog>
  );
}

/** A question with two answers: the first acts, the second (focused first: the safe one) does not. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      {props.children}
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" class="secondary" autoFocus onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      </div>
    </Dialog>
  );
}
