/**
 * The task queue of webhook delivery attempts (Cloud Tasks behind a task queue
 * function, `deliverWebhook` in index.ts; the functions emulator runs its own). One
 * task is one attempt; its id names the delivery and the attempt, so enqueueing an
 * attempt twice (a retried trigger, a recovered run) leaves one task.
 */
import { getFunctions } from 'firebase-admin/functions';
import { functionsRegion } from '../config';
import { adminApp } from './firestore';

export const DELIVERY_FUNCTION = 'deliverWebhook';

export interface DeliveryTask {
  deliveryId: string;
  attempt: number;
}

/** Queues `task` to run after `delaySeconds`; a task already queued under `taskId` is left as it is. */
export async function enqueueDeliveryAttempt(task: DeliveryTask, taskId: string, delaySeconds: number): Promise<void> {
  const queue = getFunctions(adminApp()).taskQueue<DeliveryTask>(
    `locations/${functionsRegion.value()}/functions/${DELIVERY_FUNCTION}`,
  );
  try {
    await queue.enqueue(task, { id: taskId, scheduleDelaySeconds: delaySeconds });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'functions/task-already-exists') throw error;
  }
}
