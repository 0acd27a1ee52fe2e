import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { capitalized } from '../format';
import { useAction } from '../hooks';
import { ActionForm } from './ActionForm';
import { TextField } from './Field';

/** The fields every record of the catalog has: an id, chosen once, and a name. */
interface Named {
  id: string;
  name: string;
}

/**
 * A record of a list (a partner, a reward) created or edited in a form above the list:
 * `open` shows the form and puts the focus in its first field.
 */
export function useRecordEditor<F extends Named>(noun: string) {
  const [editing, setEditing] = useState<{ form: F; isNew: boolean } | undefined>();
  const save = useAction();
  return {
    noun,
    editing,
    save,
    open: (form: F, isNew: boolean) => {
      setEditing({ form, isNew });
      save.setOutcome(undefined);
      // After the form is drawn: its first field takes the focus.
      requestAnimationFrame(() => document.getElementById(`${noun}-${isNew ? 'id' : 'name'}`)?.focus());
    },
    update: (change: Partial<F>) => editing && setEditing({ ...editing, form: { ...editing.form, ...change } }),
    close: () => setEditing(undefined),
    /** Sends the form; once saved, the form shows the record as the API stored it. */
    send: (store: (form: F) => Promise<F>) => {
      if (!editing) return;
      const { form, isNew } = editing;
      save.run(async () => {
        const saved = await store(form);
        setEditing({ form: saved, isNew: false });
        return `${capitalized(noun)} ${saved.name} ${isNew ? 'created' : 'saved'}.`;
      });
    },
  };
}

type RecordEditor<F extends Named> = ReturnType<typeof useRecordEditor<F>>;

/**
 * The editor's form: its heading, the id (fixed once created) and the name, the
 * record's other fields (`children`), Save and Close; `after` goes under the form.
 */
export function RecordForm<F extends Named>(props: {
  editor: RecordEditor<F>;
  /** An id as the API takes it, for the hint. */
  exampleId: string;
  store: (form: F) => Promise<F>;
  children?: ComponentChildren;
  after?: ComponentChildren;
}) {
  const { editor } = props;
  const { noun, editing } = editor;
  if (!editing) return null;
  return (
    <section>
      <h2>{editing.isNew ? `New ${noun}` : `Edit ${editing.form.name}`}</h2>
      <ActionForm
        action={editor.save}
        submitLabel={`Save ${noun}`}
        onSubmit={() => editor.send(props.store)}
        buttons={
          <button type="button" class="secondary" onClick={editor.close}>
            Close form
          </button>
        }
      >
        <TextField
          id={`${noun}-id`}
          label="Id"
          value={editing.form.id}
          readOnly={!editing.isNew}
          hint={
            editing.isNew
              ? `Letters, digits and hyphens, e.g. ${props.exampleId}; it cannot change later.`
              : 'The id cannot change.'
          }
          onValue={(id) => editor.update({ id } as Partial<F>)}
        />
        <TextField
          id={`${noun}-name`}
          label="Name"
          value={editing.form.name}
          onValue={(name) => editor.update({ name } as Partial<F>)}
        />
        {props.children}
      </ActionForm>
      {props.after}
    </section>
  );
}
