import type { ComponentChildren } from 'preact';

/** What every field has: a visible label tied to its control, and a hint the control is described by. */
interface FieldFrame {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  /** A hint shown elsewhere (one hint for several fields), by its id. */
  describedBy?: string;
  /** In a row of fields (`.filters`): label and control kept together in a box of their own. */
  inRow?: boolean;
}

function Frame({ id, label, hint, inRow, children }: FieldFrame & { children: ComponentChildren }) {
  const field = (
    <>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </>
  );
  return inRow ? <div class="field">{field}</div> : field;
}

const describedBy = (frame: FieldFrame): string | undefined =>
  frame.describedBy ?? (frame.hint ? `${frame.id}-hint` : undefined);

/**
 * A text field, or with `multiline` a text area. A `number` field takes whole numbers
 * (the numeric keypad on a phone); its value stays text, so the API judges it.
 */
export function TextField(
  props: FieldFrame & {
    value: string;
    onValue: (value: string) => void;
    type?: 'text' | 'number' | 'url' | 'date';
    multiline?: boolean;
    min?: number;
    max?: number;
    maxLength?: number;
    readOnly?: boolean;
    autoComplete?: string;
  },
) {
  const { id, value, onValue, type, min, max, maxLength, readOnly, autoComplete } = props;
  return (
    <Frame {...props}>
      {props.multiline ? (
        <textarea
          id={id}
          rows={3}
          value={value}
          aria-describedby={describedBy(props)}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      ) : (
        <input
          id={id}
          // Preact ties an input's other attributes to a literal `type`, which a type chosen by the caller is not.
          type={type as 'text' | undefined}
          inputMode={type === 'number' ? 'numeric' : undefined}
          step={type === 'number' ? 1 : undefined}
          min={min}
          max={max}
          maxLength={maxLength}
          readOnly={readOnly}
          autoComplete={autoComplete}
          value={value}
          aria-describedby={describedBy(props)}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Frame>
  );
}

/** A choice of a select: a value shown as it is, or a value with its own label. */
export type Choice = string | { value: string; label: string };

export function SelectField(
  props: FieldFrame & { value: string; onValue: (value: string) => void; choices: readonly Choice[] },
) {
  return (
    <Frame {...props}>
      <select
        id={props.id}
        value={props.value}
        aria-describedby={describedBy(props)}
        onChange={(event) => props.onValue(event.currentTarget.value)}
      >
        {props.choices.map((choice) => {
          const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </Frame>
  );
}

/** A checkbox (or one radio button of a group) with its label beside it. */
export function CheckField(props: {
  label: ComponentChildren;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  radio?: { name: string; value: string };
}) {
  return (
    <label class="check">
      <input
        type={props.radio ? 'radio' : 'checkbox'}
        name={props.radio?.name}
        value={props.radio?.value}
        checked={props.checked}
        onChange={(event) => props.onChecked(event.currentTarget.checked)}
      />
      {props.label}
    </label>
  );
}
