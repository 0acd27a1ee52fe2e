import type { Request } from 'firebase-functions/tasks';
import { logWarn } from '../log';
import type { DeliveryTask } from '../adapters/taskQueue';
import { attemptDelivery, failExhaustedDelivery } from '../services/webhookDelivery';

/** How often the queue runs one task at most (index.ts deliverWebhook's retryConfig.maxAttempts). */
export const DELIVERY_TASK_MAX_ATTEMPTS = 10;

/**
 * The task queue function's handler: one attempt of one delivery (services/webhookDelivery.ts).
 * A run that fails is tried again by the queue; on its last try (`retryCount`, from 0,
 * reaches `maxAttempts` - 1) a failure ends the delivery `failed` instead.
 */
export async function onDeliveryTask(
  request: Request<DeliveryTask>,
  maxAttempts = DELIVERY_TASK_MAX_ATTEMPTS,
): Promise<void> {
  const { deliveryId, attempt } = request.data ?? {};
  if (typeof deliveryId !== 'string' || !Number.isInteger(attempt) || attempt < 1) {
    logWarn('webhook_task_unreadable', { deliveryId: String(deliveryId).slice(0, 100) });
    return;
  }
  try {
    await attemptDelivery({ deliveryId, attempt });
  } catch (error) {
    if (request.retryCount < maxAttempts - 1) throw error;
    // Rethrown when the delivery could not be ended either: the queue has no try left, and the log says why.
    if (!(await failExhaustedDelivery({ deliveryId, attempt }))) throw error;
  }
}
