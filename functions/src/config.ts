/**
 * Every setting of the service, as firebase-functions params. Values come from
 * `functions/.env` (the production defaults, committed), `.env.<projectId>` for a
 * project's overrides, and Cloud Secret Manager for secrets. Read them with the
 * accessors below, inside handlers only: `.value()` at import time would run during
 * deployment, before the values exist.
 */
import { defineBoolean, defineInt, defineSecret, defineString } from 'firebase-functions/params';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/webhookEvents';
import { logError } from './log';

export const smtpPassword = defineSecret('SMTP_PASSWORD');
/** Every secret: set in Secret Manager (`firebase functions:secrets:set`), never in a dotenv file. */
export const SECRETS = [smtpPassword];

/**
 * Where every function runs, read at deploy time: the region of the project's
 * Firestore database (a Firestore trigger must be where its database is, and each
 * request's Firestore round trips stay within the region). The emulator's URLs use
 * it too, hence `us-central1` in functions/.env.
 */
export const functionsRegion = defineString('FUNCTIONS_REGION', {
  description: "The region of the project's Firestore database, e.g. us-central1 (nam5), europe-west1 (eur3)",
});

/** Read at deploy time (function options take the param itself, not its value). */
export const apiMinInstances = defineInt('API_MIN_INSTANCES', {
  description: 'Instances of the api function kept warm (0: none; 1 keeps cold starts off user requests)',
});

const pushTransport = defineString('PUSH_TRANSPORT', {
  description: 'fcm, outbox, or auto (outbox on the emulator suite, fcm when deployed)',
  input: { select: { options: [{ value: 'auto' }, { value: 'fcm' }, { value: 'outbox' }] } },
});
const notifyTopics = defineString('NOTIFY_TOPICS', {
  description: 'Comma-separated push topics that /notify/topic accepts',
});
const corsOrigins = defineString('CORS_ORIGINS', {
  description: 'Comma-separated browser origins allowed to call the API (empty: none)',
});
const smtpHost = defineString('SMTP_HOST', { description: 'SMTP server host name' });
const smtpPort = defineInt('SMTP_PORT', { description: 'SMTP server port' });
const smtpSecure = defineBoolean('SMTP_SECURE', {
  description: 'true for implicit TLS (port 465); false upgrades with STARTTLS when offered',
});
const smtpUser = defineString('SMTP_USER', { description: 'SMTP user name (empty: no authentication)' });
const mailFrom = defineString('MAIL_FROM', { description: 'Sender of the one-time-code mails' });
const otpValidityMinutes = defineInt('OTP_VALIDITY_MINUTES', {
  description: 'Validity stated in the one-time-code mail',
});
const otpPerAddressLimit = defineInt('OTP_PER_ADDRESS_LIMIT', { description: 'Mails per address per window' });
const otpPerAddressWindowMinutes = defineInt('OTP_PER_ADDRESS_WINDOW_MINUTES', {
  description: 'Window of the per-address mail limit, minutes',
});
const otpPerIpLimit = defineInt('OTP_PER_IP_LIMIT', { description: 'Mails per client IP per window' });
const otpPerIpWindowMinutes = defineInt('OTP_PER_IP_WINDOW_MINUTES', {
  description: 'Window of the per-IP mail limit, minutes',
});
const otpGlobalLimitPerHour = defineInt('OTP_GLOBAL_LIMIT_PER_HOUR', {
  description: 'Mails the whole service sends per hour, whoever asks: a ceiling over every address and network',
});

const offlineMaxDays = defineInt('OFFLINE_MAX_DAYS', {
  description: 'How many days back a deposit made while a kiosk was offline may be submitted (occurredAt)',
});

/** Oldest a deposit's `occurredAt` may be, in days. */
export const offlineWindowDays = (): number => offlineMaxDays.value();

// Claim codes (contract §18).
const claimValidDaysParam = defineInt('CLAIM_VALID_DAYS', {
  description: "How many days after an anonymous deposit's occurredAt its claim code is honoured",
});

/** How long an anonymous deposit may be claimed, in days after it happened. */
export const claimValidDays = (): number => claimValidDaysParam.value();

/**
 * How many days back a user's earnings per day are kept for the daily cap: as long as
 * a deposit may still arrive for a day (the offline window) or be claimed for it.
 */
export const capWindowDays = (): number => Math.max(offlineWindowDays(), claimValidDays());

const kioskOnlineMinutes = defineInt('KIOSK_ONLINE_MINUTES', {
  description: 'A kiosk seen within this many minutes is online; an available kiosk unseen for longer is silent',
});
const fillAlertPercent = defineInt('FILL_ALERT_PERCENT', {
  description: 'A bin reported at least this full (percent) opens a bin-full alert',
});

const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

export type PushTransportName = 'fcm' | 'outbox';

export function pushTransportName(): PushTransportName {
  const chosen = pushTransport.value();
  if (chosen === 'fcm' || chosen === 'outbox') return chosen;
  return process.env.FUNCTIONS_EMULATOR === 'true' ? 'outbox' : 'fcm';
}

export const allowedTopics = (): string[] => list(notifyTopics.value());
export const allowedCorsOrigins = (): string[] => list(corsOrigins.value());

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

export function smtpSettings(): SmtpSettings {
  return {
    host: smtpHost.value(),
    port: smtpPort.value(),
    secure: smtpSecure.value(),
    user: smtpUser.value(),
    password: smtpPassword.value(),
    from: mailFrom.value(),
  };
}

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export function otpSettings(): { validityMinutes: number; perAddress: RateLimit; perIp: RateLimit; global: RateLimit } {
  return {
    validityMinutes: otpValidityMinutes.value(),
    perAddress: { limit: otpPerAddressLimit.value(), windowMs: otpPerAddressWindowMinutes.value() * 60_000 },
    perIp: { limit: otpPerIpLimit.value(), windowMs: otpPerIpWindowMinutes.value() * 60_000 },
    global: { limit: otpGlobalLimitPerHour.value(), windowMs: 3_600_000 },
  };
}

/**
 * The fleet's thresholds. lastSeenAt is written at most once a minute, so a window
 * under 2 minutes would call a busy kiosk offline between two writes: it is raised
 * to 2. A fill threshold outside 1-100 is brought within it.
 */
export function fleetSettings(): { onlineMinutes: number; fillAlertPercent: number } {
  return {
    onlineMinutes: Math.max(2, kioskOnlineMinutes.value()),
    fillAlertPercent: Math.min(100, Math.max(1, fillAlertPercent.value())),
  };
}

// Webhooks (contract §13).
const webhookRetrySeconds = defineString('WEBHOOK_RETRY_SECONDS', {
  description: 'Waits before each retry of a webhook delivery, comma-separated seconds (then it is failed)',
});

/** The waits before each retry of a delivery; a malformed list is logged and the default used. */
export function webhookRetrySchedule(): number[] {
  const raw = webhookRetrySeconds.value();
  const schedule = parseRetrySchedule(raw);
  if (schedule) return schedule;
  logError('webhook_retry_schedule_malformed', { value: raw.slice(0, 200) });
  return DEFAULT_RETRY_SCHEDULE;
}
