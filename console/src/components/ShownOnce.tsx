import { useId, useState } from 'preact/hooks';
import { capitalized } from '../format';

/**
 * A secret the API shows this once (an API key, a signing secret): in a read-only
 * field that selects itself, with a note on where it goes and a copy button.
 */
export function ShownOnce(props: {
  label: string;
  /** What the secret is called in the copy button and its messages ("key", "secret"). */
  noun: string;
  value: string;
  note: string;
}) {
  const { noun, value } = props;
  const id = useId();
  const [copied, setCopied] = useState<string | undefined>();
  return (
    <div class="key-once">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        readOnly
        value={value}
        aria-describedby={`${id}-note`}
        onFocus={(event) => event.currentTarget.select()}
      />
      <p id={`${id}-note`}>{props.note}</p>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setCopied(`${capitalized(noun)} copied.`),
            () => setCopied(`The browser did not allow copying: select the ${noun} and copy it.`),
          )
        }
      >
        Copy {noun}
      </button>
      {copied && <p role="status">{copied}</p>}
    </div>
  );
}
