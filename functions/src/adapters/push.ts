import type { Message, Messaging } from 'firebase-admin/messaging';
import { FieldValue } from 'firebase-admin/firestore';
import { pushTransportName } from '../config';
import { adminApp, createUnderOwnId, db } from './firestore';

/** What went wrong with a push, in the terms the service acts on. */
export type PushFailure =
  /** The device token is gone for good, or was never one: forget it. */
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
const INVALID_ARGUMENT = 'messaging/invalid-argument';
const MISMATCHED_CREDENTIAL = 'messaging/mismatched-credential';
/**
 * Codes that, on a send to a token, say the token will never work here: FCM v1's
 * INVALID_ARGUMENT (see below) and SENDER_ID_MISMATCH, which firebase-admin reports as
 * `mismatched-credential` (a token registered for another project's sender).
 */
const TOKEN_REFUSED_CODES = new Set([INVALID_ARGUMENT, MISMATCHED_CREDENTIAL]);
const INVALID_MESSAGE_CODES = new Set([INVALID_ARGUMENT, 'messaging/invalid-payload']);

/** A send to one device, or to the subscribers of a topic (or condition). */
type PushTarget = 'token' | 'topic';

const targetOf = (message: Message): PushTarget => ('token' in message ? 'token' : 'topic');

/**
 * The FCM v1 API answers a malformed registration token with `invalid-argument`,
 * the code it also gives a malformed message. The service validates what it sends
 * (services/notifications.ts, domain/messages.ts), so on a send to a token the
 * token is what FCM refused: it is forgotten like an unregistered one, as is a token
 * of another sender. A topic send has no token, so there invalid-argument stays a
 * refused message and a credential mismatch is the service's own (unavailable).
 */
export function classifyFcmError(error: unknown, target: PushTarget): PushError {
  const code = String((error as { code?: unknown })?.code ?? 'unknown');
  if (UNREGISTERED_CODES.has(code)) return new PushError('unregistered', code);
  if (target === 'token' && TOKEN_REFUSED_CODES.has(code)) return new PushError('unregistered', code);
  if (INVALID_MESSAGE_CODES.has(code)) return new PushError('invalid-message', code);
  return new PushError('unavailable', code);
}

export class FcmPushTransport implements PushTransport {
  private messaging: Messaging | undefined;

  async send(message: Message): Promise<string> {
    // Loaded on the first push only: most api requests never send one.
    this.messaging ??= (require('firebase-admin/messaging') as typeof import('firebase-admin/messaging')).getMessaging(
      adminApp(),
    );
    try {
      return await this.messaging.send(message);
    } catch (error) {
      throw classifyFcmError(error, targetOf(message));
    }
  }
}

/**
 * FCM has no emulator. On the emulator suite each message is written to
 * `pushOutbox` exactly as FCM would have received it. Device tokens with a
 * reserved prefix make the outbox answer with the error code FCM gives such a
 * token, classified as FCM's own answers are, so the failure paths run end to end
 * locally; real FCM tokens never carry them.
 */
export const SIMULATED_TOKEN_PREFIXES: Readonly<Record<string, string>> = {
  'unregistered-': 'messaging/registration-token-not-registered',
  'invalid-': INVALID_ARGUMENT,
  'mismatched-': MISMATCHED_CREDENTIAL,
  'unavailable-': 'messaging/server-unavailable',
};

export class OutboxPushTransport implements PushTransport {
  async send(message: Message): Promise<string> {
    if ('token' in message) {
      for (const [prefix, code] of Object.entries(SIMULATED_TOKEN_PREFIXES)) {
        if (message.token.startsWith(prefix)) throw classifyFcmError({ code }, targetOf(message));
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
