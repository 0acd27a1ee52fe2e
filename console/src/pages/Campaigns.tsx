import { useState } from 'preact/hooks';
import { api } from '../api';
import { ActionForm } from '../components/Actions';
import { CheckField, TextField } from '../components/Field';
import { Page } from '../components/Page';
import { useAction } from '../hooks';

interface PushAnswer {
  message: string;
  pushResponse: { messageId: string };
  notificationId?: string;
}

type Target = 'topic' | 'user';
const targets: [Target, string][] = [
  ['topic', 'A topic'],
  ['user', 'One user'],
];

export default function Campaigns() {
  const [target, setTarget] = useState<Target>('topic');
  const [recipient, setRecipient] = useState('');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const send = useAction();
  return (
    <Page title="Campaigns">
      <p>A push notification to every subscriber of a topic, or to one user (who also keeps it in the app).</p>
      <ActionForm
        action={send}
        submitLabel="Send push"
        onSubmit={() =>
          send.run(async () => {
            const answer =
              target === 'topic'
                ? await api<PushAnswer>('/notify/topic', {
                    method: 'POST',
                    body: { topic: recipient.trim(), title, body },
                  })
                : await api<PushAnswer>('/notify/user', {
                    method: 'POST',
                    body: { userId: recipient.trim(), title, body },
                  });
            return `${answer.message} (message id ${answer.pushResponse.messageId}).`;
          })
        }
      >
        <fieldset>
          <legend>Send to</legend>
          {targets.map(([value, label]) => (
            <CheckField
              key={value}
              label={label}
              radio={{ name: 'target', value }}
              checked={target === value}
              onChecked={() => setTarget(value)}
            />
          ))}
        </fieldset>
        <TextField
          label={target === 'topic' ? 'Topic' : 'User id'}
          hint={
            target === 'topic'
              ? 'One of the configured topics, e.g. offers_updates.'
              : "The user's id, e.g. demo-alice."
          }
          value={recipient}
          onValue={setRecipient}
        />
        <TextField label="Title" value={title} onValue={setTitle} />
        <TextField label="Body" multiline value={body} onValue={setBody} />
      </ActionForm>
    </Page>
  );
}
