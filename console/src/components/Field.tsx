import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** What every field has: a visible label tied to its control, and a hint the control is described by. */
interface FieldFrame {
  /** The control's id, where something else names it (a focus, a shared hint); else one is made. */
  id?: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  /** A hint shown elsewhere (one hint for several fields), by its id. */
  describedBy?: string;
}

/** A field's value and what to do when the person changes it. */
export interface Bound {
  value: string;
  onValue: (value: string) => void;
}

/**
 * Label, control and hint kept together in a box (one item of a form's column or of a
 * row of filters); `control` draws the control with its id and description.
 */
function Frame(
  props: FieldFrame & { control: (aria: { id: string; 'aria-describedby'?: string }) => ComponentChildren },
) {
  const madeId = useId();
  const id = props.id ?? madeId;
  const hintId = `${id}-hint`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.control({ id, 'aria-describedby': props.describedBy ?? (props.hint ? hintId : undefined) })}
      {props.hint && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

/**
 * A text field, or with `multiline` a text area. A `number` field takes whole numbers
 * (the numeric keypad on a phone); its value stays text, so the API judges it.
 */
export function TextField(
  props: FieldFrame &
    Bound & {
      type?: 'text' | 'number' | 'url' | 'date';
      multiline?: boolean;
      min?: number;
      max?: number;
      maxLength?: number;
      readOnly?: boolean;
      autoComplete?: string;
    },
) {
  const { value, onValue, type } = props;
  return (
    <Frame
      {...props}
      control={(aria) =>
        props.multiline ? (
          <textarea {...aria} rows={3} value={value} onInput={(event) => onValue(event.currentTarget.value)} />
        ) : (
          <input
            {...aria}
            // Preact ties an input's other attributes to a literal `type`, which a type chosen by the caller is not.
            type={type as 'text' | undefined}
            inputMode={type === 'number' ? 'numeric' : undefined}
            step={type === 'number' ? 1 : undefined}
            min={props.min}
            max={props.max}
            maxLength={props.maxLength}
            readOnly={props.readOnly}
            autoComplete={props.autoComplete}
            value={value}
            onInput={(event) => onValue(event.currentTarget.value)}
          />
        )
      }
    />
  );
}

/** A choice of a select: a value shown as it is, or a value with its own label. */
type Choice = string | { value: string; label: string };

/** A select; `emptyChoice` labels a first choice of the empty value (no filter: "All"; none chosen: "Any partner"). */
export function SelectField(props: FieldFrame & Bound & { emptyChoice?: string; choices: readonly Choice[] }) {
  const choices =
    props.emptyChoice === undefined ? props.choices : [{ value: '', label: props.emptyChoice }, ...props.choices];
  return (
    <Frame
      {...props}
      control={(aria) => (
        <select {...aria} value={props.value} onChange={(event) => props.onValue(event.currentTarget.value)}>
          {choices.map((choice) => {
            const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
            return (
              <option key={value} value={value}>
                {label}
              </option>
            );
          })}
        </select>
      )}
    />
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
