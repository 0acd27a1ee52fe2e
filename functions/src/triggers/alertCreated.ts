import { pushOpenedAlert } from '../services/alertPush';
import { claimThenActTrigger } from './claimThenAct';

/** onDocumentCreated("alerts/{alertId}"): the one push of an opened alert to the operators' topic. */
export const onAlertCreated = claimThenActTrigger('alertId', 'alert_push', pushOpenedAlert);
