import { useState } from 'preact/hooks';
import { api } from '../api';
import { Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { useAction } from '../hooks';

interface PushAnswer {
  message: string;
  pushResponse: { messageId: string };
  notificationId?: string;
}

export default function Campaigns() {
  const [target, setTarget] = useState<'topic' | 'user'>('topic');
  const [recipient, setRecipient] = useState('');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const send = useAction();
  return (
    <Page title="Campaigns">
      <p>A push notification to every subscriber of a topic, or to one user (who also keeps it in the app).</p>
      <form
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
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
          });
        }}
      >
        <fieldset>
          <legend>Send to</legend>
          <label class="check">
            <input
              type="radio"
              name="target"
              value="topic"
              checked={target === 'topic'}
              onChange={() => setTarget('topic')}
            />
            A topic
          </label>
          <label class="check">
            <input
              type="radio"
              name="target"
              value="user"
              checked={target === 'user'}
              onChange={() => setTarget('user')}
            />
            One user
          </label>
        </fieldset>
        <label for="push-recipient">{target === 'topic' ? 'Topic' : 'User id'}</label>
        <input
          id="push-recipient"
          value={recipient}
          aria-describedby="push-recipient-hint"
          onInput={(event) => setRecipient(event.currentTarget.value)}
        />
        <p class="hint" id="push-recipient-hint">
          {target === 'topic'
            ? 'One of the configured topics, e.g. offers_updates.'
            : "The user's id, e.g. demo-alice."}
        </p>
        <label for="push-title">Title</label>
        <input id="push-title" value={title} onInput={(event) => setTitle(event.currentTarget.value)} />
        <label for="push-body">Body</label>
        <textarea id="push-body" rows={3} value={body} onInput={(event) => setBody(event.currentTarget.value)} />
        <button type="submit" disabled={send.busy}>
          Send push
        </button>
        <Outcome outcome={send.outcome} />
      </form>
    </Page>
  );
}
