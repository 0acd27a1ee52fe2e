import type { Request } from 'firebase-functions/tasks';
import { logWarn } from '../log';
import type { DeliveryTask } from '../adapters/taskQueue';
import { attemptDelivery } from '../services/webhookDelivery';

/** The task queue function's handler: one attempt of one delivery (services/webhookDelivery.ts). */
export async function onDeliveryTask(request: Request<DeliveryTask>): Promise<void> {
  const { deliveryId, attempt } = request.data ?? {};
  if (typeof deliveryId !== 'string' || !Number.isInteger(attempt) || attempt < 1) {
    logWarn('webhook_task_unreadable', { deliveryId: String(deliveryId).slice(0, 100) });
    return;
  }
  await attemptDelivery({ deliveryId, attempt });
}
