import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { useAction } from '../hooks';
import { ActionForm } from './Actions';
import { Outcome } from './Outcome';

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

/** An action on something (a key, a webhook, a user) that asks first: what it is about while the question is open. */
export function useConfirm<T>() {
  const [subject, setSubject] = useState<T | undefined>();
  const action = useAction();
  return {
    subject,
    action,
    ask: (about: T) => {
      action.setOutcome(undefined);
      setSubject(about);
    },
    close: () => setSubject(undefined),
  };
}

/**
 * The question of a `useConfirm`, e.g. "Revoke this key?", with two answers: "Revoke
 * key" acts, "Keep key" (focused first: the safe one) does not. `children` may hold
 * fields (a reason): the answers are the form's. A failure is told in the dialog; a
 * success closes it and is told where this component stands in the page.
 */
export function ConfirmDialog<T>(props: {
  confirm: ReturnType<typeof useConfirm<T>>;
  verb: string;
  noun: string;
  /** Acts on the subject; the sentence that tells the success. */
  act: (subject: T) => Promise<string>;
  onDone?: (subject: T) => void;
  children: (subject: T) => ComponentChildren;
}) {
  const { confirm, verb, noun } = props;
  const { subject, action } = confirm;
  return (
    <>
      {action.outcome?.kind === 'status' && <Outcome outcome={action.outcome} />}
      <Dialog open={subject !== undefined} title={`${verb} this ${noun}?`} onClose={confirm.close}>
        {subject !== undefined && (
          <ActionForm
            action={action}
            submitLabel={`${verb} ${noun}`}
            danger
            failuresOnly
            buttons={
              <button type="button" class="secondary" autoFocus onClick={confirm.close}>
                Keep {noun}
              </button>
            }
            onSubmit={() =>
              action
                .run(() => props.act(subject))
                .then((done) => {
                  if (!done) return;
                  confirm.close();
                  props.onDone?.(subject);
                })
            }
          >
            {props.children(subject)}
          </ActionForm>
        )}
      </Dialog>
    </>
  );
}
