import type { AnyRoute } from '../types';
import { upsertKioskRoute, createKioskKey, revokeKioskKey } from './admin';
import { getKiosk } from './getKiosk';
import { getUser } from './getUser';
import { health } from './health';
import { listKiosks } from './listKiosks';
import { notifyTopic, notifyUser } from './notify';
import { deletePushToken, putPushToken } from './pushToken';
import { sendOtpEmail } from './sendOtpEmail';
import { submitTransaction } from './submitTransaction';
import { updateKioskStatus } from './updateKioskStatus';

/** Every endpoint of the `api` function. */
export const routes: AnyRoute[] = [
  health,
  submitTransaction,
  updateKioskStatus,
  getKiosk,
  listKiosks,
  getUser,
  putPushToken,
  deletePushToken,
  notifyTopic,
  notifyUser,
  sendOtpEmail,
  upsertKioskRoute,
  createKioskKey,
  revokeKioskKey,
];
