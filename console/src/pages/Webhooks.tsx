import { useState } from 'preact/hooks';
import { api } from '../api';
import { ConfirmDialog } from '../components/Dialog';
import { DataTable, type Column } from '../components/DataTable';
import { LoadState, Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { Pager } from '../components/Pager';
import { formatDateTime } from '../format';
import { useAction, useCursorPages, useLoad } from '../hooks';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type NewWebhook, type Webhook, type WebhookDelivery } from '../types';

const PAGE_SIZE = 25;

export default function Webhooks() {
  const webhooks = useLoad(() => api<{ webhooks: Webhook[] }>('/admin/webhooks').then((answer) => answer.webhooks), []);
  const remove = useAction();
  const rotate = useAction();
  const [secret, setSecret] = useState<{ url: string; secret: string } | undefined>();
  const [deleting, setDeleting] = useState<Webhook | undefined>();
  const [shown, setShown] = useState<Webhook | undefined>();

  const columns: Column<Webhook>[] = [
    { header: 'URL', cell: (webhook) => webhook.url, rowHeader: true },
    { header: 'Events', cell: (webhook) => webhook.events.join(', ') },
    { header: 'Description', cell: (webhook) => webhook.description || '—' },
    { header: 'Created', cell: (webhook) => formatDateTime(webhook.createdAt) },
    {
      header: 'Actions',
      cell: (webhook) => (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setShown(webhook)}>
            Show deliveries <span class="visually-hidden">of {webhook.url}</span>
          </button>
          <button
            type="button"
            class="secondary"
            disabled={rotate.busy}
            onClick={() =>
              rotate.run(async () => {
                const answer = await api<{ webhook: NewWebhook }>(
                  `/admin/webhooks/${encodeURIComponent(webhook.id)}/rotate-secret`,
                  { method: 'POST' },
                );
                setSecret({ url: webhook.url, secret: answer.webhook.secret });
                return `New secret for ${webhook.url}: the old one still signs for 24 hours.`;
              })
            }
          >
            Rotate secret <span class="visually-hidden">of {webhook.url}</span>
          </button>
          <button type="button" class="danger" onClick={() => setDeleting(webhook)}>
            Delete webhook <span class="visually-hidden">{webhook.url}</span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <Page title="Webhooks">
      <RegisterWebhook
        onRegistered={(webhook) => {
          setSecret({ url: webhook.url, secret: webhook.secret });
          webhooks.reload();
        }}
      />
      {secret && <SecretOnce {...secret} />}
      <section>
        <h2>Registered webhooks</h2>
        <LoadState loading={webhooks.loading && !webhooks.data} error={webhooks.error} />
        {webhooks.data && (
          <DataTable
            caption="Webhooks"
            columns={columns}
            rows={webhooks.data}
            rowKey={(webhook) => webhook.id}
            empty="No webhooks yet."
          />
        )}
        <Outcome outcome={rotate.outcome} />
        <Outcome outcome={remove.outcome} />
      </section>
      {shown && <Deliveries webhook={shown} />}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        cancelLabel="Keep webhook"
        busy={remove.busy}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          const webhook = deleting!;
          remove
            .run(async () => {
              await api(`/admin/webhooks/${encodeURIComponent(webhook.id)}`, { method: 'DELETE' });
              return `Webhook ${webhook.url} deleted: nothing more is sent to it.`;
            })
            .then(() => {
              setDeleting(undefined);
              if (shown?.id === webhook.id) setShown(undefined);
              webhooks.reload();
            });
        }}
      >
        <p>No event is sent to {deleting?.url} from now on.</p>
      </ConfirmDialog>
    </Page>
  );
}

function RegisterWebhook({ onRegistered }: { onRegistered: (webhook: NewWebhook) => void }) {
  const register = useAction();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  return (
    <section>
      <h2>Register a webhook</h2>
      <form
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          register.run(async () => {
            const answer = await api<{ webhook: NewWebhook }>('/admin/webhooks', {
              method: 'POST',
              body: { url, events, description },
            });
            onRegistered(answer.webhook);
            setUrl('');
            setDescription('');
            setEvents([]);
            return `Webhook ${answer.webhook.url} registered.`;
          });
        }}
      >
        <label for="webhook-url">URL</label>
        <input id="webhook-url" type="url" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label class="check" key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) =>
                  setEvents(
                    event.currentTarget.checked ? [...events, type] : events.filter((chosen) => chosen !== type),
                  )
                }
              />
              {type}
            </label>
          ))}
        </fieldset>
        <label for="webhook-description">Description</label>
        <input
          id="webhook-description"
          value={description}
          maxLength={500}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
        <button type="submit" disabled={register.busy}>
          Register webhook
        </button>
        <Outcome outcome={register.outcome} />
      </form>
    </section>
  );
}

function SecretOnce({ url, secret }: { url: string; secret: string }) {
  const [copied, setCopied] = useState<string | undefined>();
  return (
    <div class="key-once">
      <label for="webhook-secret">Secret</label>
      <input
        id="webhook-secret"
        readOnly
        value={secret}
        aria-describedby="webhook-secret-note"
        onFocus={(event) => event.currentTarget.select()}
      />
      <p id="webhook-secret-note">
        The signing secret of {url}. Give it to the receiver now: it will not be shown again.
      </p>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          navigator.clipboard.writeText(secret).then(
            () => setCopied('Secret copied.'),
            () => setCopied('The browser did not allow copying: select the secret and copy it.'),
          )
        }
      >
        Copy secret
      </button>
      {copied && <p role="status">{copied}</p>}
    </div>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const [status, setStatus] = useState('');
  const retry = useAction();
  const path = `/admin/webhooks/${encodeURIComponent(webhook.id)}/deliveries`;
  const pages = useCursorPages(
    (cursor) =>
      api<{ deliveries: WebhookDelivery[]; nextCursor: string | null }>(path, {
        query: { status: status || undefined, limit: PAGE_SIZE, cursor },
      }).then((answer) => ({ items: answer.deliveries, nextCursor: answer.nextCursor })),
    [path, status],
  );
  const lastAttempt = (delivery: WebhookDelivery): string => {
    const last = delivery.attempts.at(-1);
    if (!last) return 'None yet';
    return `${delivery.attempts.length}: ${last.statusCode ?? 'no answer'}${last.error ? ` (${last.error})` : ''}`;
  };
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (delivery) => <code>{delivery.eventId}</code>, rowHeader: true },
    { header: 'Type', cell: (delivery) => delivery.type },
    { header: 'Status', cell: (delivery) => delivery.status },
    { header: 'Created', cell: (delivery) => formatDateTime(delivery.createdAt) },
    { header: 'Attempts', cell: lastAttempt },
    {
      header: 'Action',
      cell: (delivery) =>
        delivery.status === 'pending' ? null : (
          <button
            type="button"
            class="secondary"
            disabled={retry.busy}
            onClick={() =>
              retry
                .run(async () => {
                  await api(`${path}/${encodeURIComponent(delivery.id)}/retry`, { method: 'POST' });
                  return `Delivery of ${delivery.eventId} queued again.`;
                })
                .then(pages.reload)
            }
          >
            Retry delivery
          </button>
        ),
    },
  ];
  return (
    <section>
      <h2>Deliveries</h2>
      <p class="hint">Events sent to {webhook.url}, newest first.</p>
      <div class="filters">
        <label for="delivery-status">Status</label>
        <select id="delivery-status" value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
          <option value="">All</option>
          {DELIVERY_STATUSES.map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </select>
        <button type="button" class="secondary" disabled={pages.loading} onClick={pages.first}>
          Refresh
        </button>
      </div>
      <LoadState loading={pages.loading && !pages.data} error={pages.error} />
      {pages.data && (
        <DataTable
          caption="Deliveries"
          columns={columns}
          rows={pages.data.items}
          rowKey={(delivery) => delivery.id}
          empty="No deliveries."
        />
      )}
      <Outcome outcome={retry.outcome} />
      <Pager label="Deliveries" {...pages} />
    </section>
  );
}
