/** webhook:create, webhook:list, webhook:delete, webhook:rotate-secret: the CLI side of the webhook routes. */
import { listWebhooks, toWebhookView } from '../../data/webhooks';
import { assertDocumentId } from '../../domain/ids';
import type { WebhookBody } from '../../model/requestBodies';
import { validateBody } from '../../http/validation';
import { registerWebhook, removeWebhook, rotateSecret } from '../../services/webhooks';
import { note, print, printJson, printListing, type Command } from '../command';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../model/webhookEventTypes';

const webhookCreate: Command = {
  name: 'webhook:create',
  description:
    'Registers a webhook (https; on the emulators also http to 127.0.0.1 or localhost). Prints it as JSON with ' +
    'its signing secret, shown this once.',
  example:
    'npm run admin -- webhook:create --url https://crm.example.com/hooks --events transaction.awarded,alert.opened',
  flags: {
    url: { value: 'URL', description: 'where events are POSTed', required: true },
    events: { value: 'TYPES', description: `comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`, required: true },
    description: { value: 'TEXT', description: 'a note on the webhook, e.g. who receives it' },
    partner: {
      value: 'ID',
      description: "a partner's webhook: only redemption.used and redemption.cancelled of its rewards, no user id",
    },
  },
  uses: { firestore: true },
  run: async (flags, target) => {
    const body = validateBody<WebhookBody>('webhookBody', {
      url: flags.required('url'),
      events: flags
        .required('events')
        .split(',')
        .map((type) => type.trim()),
      description: flags.get('description') ?? '',
      partnerId: flags.get('partner') ?? null,
    });
    const webhook = await registerWebhook({ ...body, events: body.events as WebhookEventType[] }, target.emulator);
    await note(`Registered webhook ${webhook.id}. Its secret is shown this once: give it to the receiver now.`);
    await printJson(webhook);
  },
};

const webhookList: Command = {
  name: 'webhook:list',
  description: 'Lists every webhook (never a secret).',
  flags: { json: { description: 'print JSON instead of a table' } },
  uses: { firestore: true },
  run: async (flags) =>
    printListing(
      flags,
      (await listWebhooks()).map(toWebhookView),
      ['id', 'url', 'events', 'partner', 'description', 'created'],
      (webhook) => [
        webhook.id,
        webhook.url,
        webhook.events.join(','),
        webhook.partnerId ?? '-',
        webhook.description,
        webhook.createdAt,
      ],
    ),
};

const webhookDelete: Command = {
  name: 'webhook:delete',
  description: 'Deletes a webhook: nothing is delivered to it from now on.',
  flags: { id: { value: 'ID', description: 'the webhook id', required: true } },
  uses: { firestore: true },
  run: async (flags) => {
    const id = assertDocumentId(flags.required('id'), 'id');
    await removeWebhook(id);
    await print(`Deleted webhook ${id}.`);
  },
};

const webhookRotateSecret: Command = {
  name: 'webhook:rotate-secret',
  description:
    'Gives a webhook a new secret, printed this once; for 24 h deliveries carry signatures under the old and the new.',
  flags: { id: { value: 'ID', description: 'the webhook id', required: true } },
  uses: { firestore: true },
  run: async (flags) => {
    const webhook = await rotateSecret(assertDocumentId(flags.required('id'), 'id'));
    await note(`Rotated the secret of webhook ${webhook.id}; the old one still signs for 24 h.`);
    await printJson(webhook);
  },
};

export const webhookCommands: readonly Command[] = [webhookCreate, webhookList, webhookDelete, webhookRotateSecret];
