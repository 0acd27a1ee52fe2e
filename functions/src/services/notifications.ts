import type { Message } from 'firebase-admin/messaging';
import { logInfo, logWarn } from '../log';
import { createUnderOwnId } from '../adapters/firestore';
import { PushError, type PushTransport } from '../adapters/push';
import { newNotification, notificationsOf } from '../data/notifications';
import { forgetPushToken, getUser } from '../data/users';
import { ApiError, badRequest, conflict } from '../errors';
import { reservedDataKeys } from '../domain/messages';

export interface OutgoingNotification {
  title: string;
  body: string;
  data?: Record<string, string> | null;
}

/** FCM's limit on a message's notification and data together. */
export const MAX_PUSH_PAYLOAD_BYTES = 4096;

/**
 * Everything FCM would refuse about a message, refused here first (400): so a send to
 * a token that FCM answers with invalid-argument is about the token (adapters/push.ts).
 * The size counts the JSON of title, body and data, an upper bound of FCM's count.
 */
function assertSendable({ title, body, data }: OutgoingNotification): Record<string, string> {
  const reserved = reservedDataKeys(data);
  if (reserved.length > 0) throw badRequest(`data.${reserved[0]} is a key reserved by the push provider`);
  const payload = { notification: { title, body }, data: data ?? {} };
  if (Buffer.byteLength(JSON.stringify(payload)) > MAX_PUSH_PAYLOAD_BYTES) {
    throw badRequest(`title, body and data together must be at most ${MAX_PUSH_PAYLOAD_BYTES} bytes`);
  }
  return payload.data;
}

/** Maps a failed push to what the operator who asked for it is told. */
function toApiError(failure: PushError): ApiError {
  switch (failure.failure) {
    case 'unregistered':
      return new ApiError(
        'push-token-unregistered',
        'The push provider does not accept the device token (unregistered or malformed); it was removed',
      );
    case 'invalid-message':
      return new ApiError('push-message-rejected', 'The push provider rejected the message');
    case 'unavailable':
      return new ApiError('push-provider-unavailable', 'The push provider could not be reached; try again later');
  }
}

async function sendOrExplain(push: PushTransport, message: Message, token?: string): Promise<string> {
  try {
    return await push.send(message);
  } catch (error) {
    // Only the provider's answers are the provider's fault; anything else is ours (500).
    if (!(error instanceof PushError)) throw error;
    const apiError = toApiError(error);
    logWarn('push_failed', { code: apiError.code, target: token ? 'token' : 'topic' });
    if (token && apiError.code === 'push-token-unregistered') await forgetPushToken(token);
    throw apiError;
  }
}

export async function notifyTopic(
  push: PushTransport,
  topic: string,
  notification: OutgoingNotification,
): Promise<string> {
  const data = assertSendable(notification);
  const messageId = await sendOrExplain(push, {
    topic,
    notification: { title: notification.title, body: notification.body },
    data,
  });
  logInfo('topic_notification_sent', { topic, messageId });
  return messageId;
}

export async function notifyDevice(
  push: PushTransport,
  token: string,
  notification: OutgoingNotification,
): Promise<string> {
  const data = assertSendable(notification);
  return sendOrExplain(
    push,
    { token, notification: { title: notification.title, body: notification.body }, data },
    token,
  );
}

/**
 * Pushes to the user's registered device and keeps the message in their in-app
 * notifications, only once the push was accepted so a failure leaves nothing behind.
 */
export async function notifyUser(
  push: PushTransport,
  userId: string,
  notification: OutgoingNotification,
): Promise<{ messageId: string; notificationId: string }> {
  const data = assertSendable(notification);
  const user = await getUser(userId);
  if (!user.pushToken) throw conflict(`User ${userId} has no registered push token`, 'no-push-token');
  const messageId = await notifyDevice(push, user.pushToken, notification);
  const notificationRef = notificationsOf(userId).doc();
  await createUnderOwnId(
    notificationRef,
    newNotification({ type: 'message', title: notification.title, body: notification.body, data }),
  );
  logInfo('user_notification_sent', { userId, messageId, notificationId: notificationRef.id });
  return { messageId, notificationId: notificationRef.id };
}
