import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { capitalized } from '../format';
import { useAction } from '../hooks';
import { ActionForm } from './Actions';
import { TextField, type Bound } from './Field';

/** The fields every record of the catalog has: an id, chosen once, and a name. */
interface Named {
  id: string;
  name: string;
}

/** The fields of a form that hold text (what a text field or a select binds to). */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F];

/**
 * A record of a list (a partner, a reward) created or edited in a form above the list.
 * `store` sends the form and answers it as the API stored it; `onSaved` then (e.g. the
 * list loaded again).
 */
export function useRecordEditor<F extends Named>(
  noun: string,
  emptyForm: F,
  store: (form: F) => Promise<F>,
  onSaved: () => void,
) {
  const [editing, setEditing] = useState<{ form: F; isNew: boolean } | undefined>();
  const save = useAction();
  const update = (change: Partial<F>) => editing && setEditing({ ...editing, form: { ...editing.form, ...change } });
  return {
    noun,
    editing,
    save,
    update,
    /** Shows the form (a new record when none is given), the focus in its first field. */
    open: (record?: F) => {
      setEditing({ form: record ?? emptyForm, isNew: !record });
      save.setOutcome(undefined);
      // After the form is drawn.
      requestAnimationFrame(() => document.getElementById(`${noun}-${record ? 'name' : 'id'}`)?.focus());
    },
    close: () => setEditing(undefined),
    /** A field of the form bound to a text property of the record. */
    bind: (key: TextKey<F>): Bound => ({
      value: editing ? String(editing.form[key]) : '',
      onValue: (value) => update({ [key]: value } as Partial<F>),
    }),
    send: () => {
      if (!editing) return;
      const { form, isNew } = editing;
      save.run(async () => {
        const saved = await store(form);
        setEditing({ form: saved, isNew: false });
        onSaved();
        return `${capitalized(noun)} ${saved.name} ${isNew ? 'created' : 'saved'}.`;
      });
    },
  };
}

type RecordEditor<F extends Named> = ReturnType<typeof useRecordEditor<F>>;

/**
 * The editor's "New …" button and, while open, its form: its heading, the id (fixed
 * once created) and the name, the record's other fields (`children`), Save and Close;
 * `after` goes under the form.
 */
export function RecordForm<F extends Named>(props: {
  editor: RecordEditor<F>;
  /** An id as the API takes it, for the hint. */
  exampleId: string;
  children?: ComponentChildren;
  after?: ComponentChildren;
}) {
  const { editor } = props;
  const { noun, editing } = editor;
  return (
    <>
      <button type="button" onClick={() => editor.open()}>
        New {noun}
      </button>
      {editing && (
        <section>
          <h2>{editing.isNew ? `New ${noun}` : `Edit ${editing.form.name}`}</h2>
          <ActionForm
            action={editor.save}
            submitLabel={`Save ${noun}`}
            onSubmit={editor.send}
            buttons={
              <button type="button" class="secondary" onClick={editor.close}>
                Close form
              </button>
            }
          >
            <TextField
              id={`${noun}-id`}
              label="Id"
              readOnly={!editing.isNew}
              hint={
                editing.isNew
                  ? `Letters, digits and hyphens, e.g. ${props.exampleId}; it cannot change later.`
                  : 'The id cannot change.'
              }
              {...editor.bind('id' as TextKey<F>)}
            />
            <TextField id={`${noun}-name`} label="Name" {...editor.bind('name' as TextKey<F>)} />
            {props.children}
          </ActionForm>
          {props.after}
        </section>
      )}
    </>
  );
}
