import type { FirestoreEvent, QueryDocumentSnapshot } from 'firebase-functions/firestore';
import { logInfo } from '../log';
import { pushTransport, type PushTransport } from '../adapters/push';

type ClaimThenActService = (id: string, push: PushTransport) => Promise<string>;

/**
 * The handler of a Firestore create trigger whose work is one claim-then-act service:
 * the service gets the created document's id (path parameter `param`) and the push
 * transport, and the outcome of its claim is logged as `logEvent`.
 */
export function claimThenActTrigger<P extends string>(param: P, logEvent: string, service: ClaimThenActService) {
  return async (event: FirestoreEvent<QueryDocumentSnapshot | undefined, Record<P, string>>): Promise<void> => {
    const id = event.params[param];
    const state = await service(id, pushTransport());
    logInfo(logEvent, { [param]: id, eventId: event.id, state });
  };
}
