import { useState } from 'preact/hooks';
import { api } from '../api';
import { ActionButton, ActionForm } from '../components/Actions';
import { ConfirmDialog, useConfirm } from '../components/Dialog';
import { CursorTable, ListTable, PAGE_SIZE, type Column } from '../components/DataTable';
import { CheckField, SelectField, TextField } from '../components/Field';
import { Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { RefreshButton } from '../components/RefreshButton';
import { ShownOnce } from '../components/ShownOnce';
import { formatDateTime } from '../format';
import { useAction, useCursorPages, useLoad } from '../hooks';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type NewWebhook, type Webhook, type WebhookDelivery } from '../types';

export default function Webhooks() {
  const webhooks = useLoad(() => api<{ webhooks: Webhook[] }>('/admin/webhooks').then((answer) => answer.webhooks), []);
  const remove = useConfirm<Webhook>();
  const rotate = useAction();
  const [secret, setSecret] = useState<{ url: string; secret: string } | undefined>();
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
          <ActionButton
            action={rotate}
            run={async () => {
              const answer = await api<{ webhook: NewWebhook }>(
                `/admin/webhooks/${encodeURIComponent(webhook.id)}/rotate-secret`,
                { method: 'POST' },
              );
              setSecret({ url: webhook.url, secret: answer.webhook.secret });
              return `New secret for ${webhook.url}: the old one still signs for 24 hours.`;
            }}
          >
            Rotate secret <span class="visually-hidden">of {webhook.url}</span>
          </ActionButton>
          <button type="button" class="danger" onClick={() => remove.ask(webhook)}>
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
      {secret && (
        <ShownOnce
          key={secret.secret}
          label="Secret"
          noun="secret"
          value={secret.secret}
          note={`The signing secret of ${secret.url}. Give it to the receiver now: it will not be shown again.`}
        />
      )}
      <section>
        <h2>Registered webhooks</h2>
        <ListTable caption="Webhooks" columns={columns} list={webhooks} rowKey="id" empty="No webhooks yet." />
        <Outcome outcome={rotate.outcome} />
        <ConfirmDialog
          confirm={remove}
          verb="Delete"
          noun="webhook"
          act={async (webhook) => {
            await api(`/admin/webhooks/${encodeURIComponent(webhook.id)}`, { method: 'DELETE' });
            return `Webhook ${webhook.url} deleted: nothing more is sent to it.`;
          }}
          onDone={(webhook) => {
            if (shown?.id === webhook.id) setShown(undefined);
            webhooks.reload();
          }}
        >
          {(webhook) => <p>No event is sent to {webhook.url} from now on.</p>}
        </ConfirmDialog>
      </section>
      {shown && <Deliveries webhook={shown} />}
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
      <ActionForm
        action={register}
        submitLabel="Register webhook"
        onSubmit={() =>
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
          })
        }
      >
        <TextField label="URL" type="url" value={url} onValue={setUrl} />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <CheckField
              key={type}
              label={type}
              checked={events.includes(type)}
              onChecked={(checked) =>
                setEvents(checked ? [...events, type] : events.filter((chosen) => chosen !== type))
              }
            />
          ))}
        </fieldset>
        <TextField label="Description" value={description} maxLength={500} onValue={setDescription} />
      </ActionForm>
    </section>
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
          <ActionButton
            action={retry}
            run={async () => {
              await api(`${path}/${encodeURIComponent(delivery.id)}/retry`, { method: 'POST' });
              pages.reload();
              return `Delivery of ${delivery.eventId} queued again.`;
            }}
          >
            Retry delivery
          </ActionButton>
        ),
    },
  ];
  return (
    <section>
      <h2>Deliveries</h2>
      <p class="hint">Events sent to {webhook.url}, newest first.</p>
      <div class="filters">
        <SelectField label="Status" emptyChoice="All" choices={DELIVERY_STATUSES} value={status} onValue={setStatus} />
        <RefreshButton loading={pages.loading} onRefresh={pages.first} />
      </div>
      <CursorTable caption="Deliveries" columns={columns} pages={pages} rowKey="id" empty="No deliveries." />
      <Outcome outcome={retry.outcome} />
    </section>
  );
}
