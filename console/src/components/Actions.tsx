import type { ComponentChildren } from 'preact';
import type { Action } from '../hooks';
import { Outcome } from './Outcome';

/**
 * A form that runs one action: its submit button says what it does and is disabled
 * while the action runs; other buttons go beside it; the outcome is told under them
 * (with `failuresOnly`, only a failure: the page tells the success elsewhere).
 */
export function ActionForm(props: {
  action: Action;
  submitLabel: string;
  onSubmit: () => void;
  danger?: boolean;
  buttons?: ComponentChildren;
  failuresOnly?: boolean;
  children: ComponentChildren;
}) {
  const { action } = props;
  const submit = (
    <button type="submit" class={props.danger ? 'danger' : undefined} disabled={action.busy}>
      {props.submitLabel}
    </button>
  );
  return (
    <form
      class="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      {props.buttons ? (
        <div class="actions">
          {submit}
          {props.buttons}
        </div>
      ) : (
        submit
      )}
      {(!props.failuresOnly || action.outcome?.kind === 'alert') && <Outcome outcome={action.outcome} />}
    </form>
  );
}

/** A button that runs an action outside a form (a download, a retry): disabled while it runs. */
export function ActionButton(props: { action: Action; run: () => Promise<string>; children: ComponentChildren }) {
  return (
    <button type="button" class="secondary" disabled={props.action.busy} onClick={() => props.action.run(props.run)}>
      {props.children}
    </button>
  );
}
