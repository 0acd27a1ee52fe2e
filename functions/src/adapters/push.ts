import type { Message, Messaging } from 'firebase-admin/messaging';
import { FieldValue } from 'firebase-admin/firestore';
import { pushTransportName } from '../config';
import { adminApp, createUnderOwnId, db } from './firestore';

/** What went wrong with a push, in the terms the service acts on. */
export type PushFailure =
  /** The device token is gone for good: forget it. */
  | 'unregistered'
  /** The provider refused the message itself. */
  | 'invalid-message'
  /** Anything else: worth recording, not worth failing an award over. */
  | 'unavailable';

export class PushError extends Error {
  constructor(
    readonly failure: PushFailure,
    readonly providerCode: string,
  ) {
    super(`push failed: ${failure} (${providerCode})`);
    this.name = 'PushError';
  }
}

export interface PushTransport {
  /** Resolves with the provider's message id, or rejects with a PushError. */
  send(message: Message): Promise<string>;
}

const UNREGISTERED_CODES = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
]);
const INVALID_MESSAGE_CODES = new Set(['messaging/invalid-argument', 'messaging/invalid-payload']);

export function classifyFcmError(error: unknown): PushError {
  const code = String((error as { code?: unknown })?.code ?? 'unknown');
  if (UNREGISTERED_CODES.has(code)) return new PushError('unregistered', code);
  if (INVALID_MESSAGE_CODES.has(code)) return new PushError('invalid-message', code);
  return new PushError('unavailable', code);
}

export class FcmPushTransport implements PushTransport {
  private messaging: Messaging | undefined;

  async send(message: Message): Promise<string> {
    // Loaded on the first push only: most api requests never send one.
    this.messaging ??= (require('firebase-admin/messaging') as typeof import('firebase-admin/messaging')).getMessaging(adminApp());
    try {
      return await this.messaging.send(message);
    } catch (error) {
      throw classifyFcmError(error);
    }
  }
}

/**
 * FCM has no emulator. On the emulator suite each message is written to
 * `pushOutbox` exactly as FCM would have received it. Device tokens with a
 * reserved prefix make the outbox answer the way FCM answers such a token, so the
 * failure paths run end to end locally; real FCM tokens never carry them.
 */
export const SIMULATED_TOKEN_PREFIXES: Readonly<Record<string, PushFailure>> = {
  'unregistered-': 'unregistered',
  'invalid-': 'invalid-message',
  'unavailable-': 'unavailable',
};

export class OutboxPushTransport implements PushTransport {
  async send(message: Message): Promise<string> {
    if ('token' in message) {
      for (const [prefix, failure] of Object.entries(SIMULATED_TOKEN_PREFIXES)) {
        if (message.token.startsWith(prefix)) throw new PushError(failure, `simulated/${failure}`);
      }
    }
    const ref = db().collection('pushOutbox').doc();
    await createUnderOwnId(ref, { message, createdAt: FieldValue.serverTimestamp() });
    return `projects/${process.env.GCLOUD_PROJECT ?? 'local'}/messages/${ref.id}`;
  }
}

let transport: PushTransport | undefined;

export function pushTransport(): PushTransport {
  transport ??= pushTransportName() === 'outbox' ? new OutboxPushTransport() : new FcmPushTransport();
  return transport;
}
