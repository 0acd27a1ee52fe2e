import type { AlertKind } from '../model/vocabulary';

/** Texts of what a user is told, in the app and on the phone. */
export interface TransactionSummary {
  transactionId: string;
  kioskId: string;
  kioskName: string;
  totalItems: number;
  pointsEarned: number;
  newBalance: number;
  /** Held for review (contract §17): the points are being checked, not credited. */
  held?: boolean;
}

export interface NotificationContent {
  title: string;
  body: string;
  data: Record<string, string>;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function transactionNotification(summary: TransactionSummary): NotificationContent {
  if (summary.held) {
    return {
      title: `We are checking your ${plural(summary.pointsEarned, 'point')}`,
      body:
        `Thanks for recycling ${plural(summary.totalItems, 'item')} at ${summary.kioskName}. ` +
        'Your points are being checked and will be credited once an operator has looked at them.',
      data: {
        type: 'transaction',
        status: 'held',
        transactionId: summary.transactionId,
        kioskId: summary.kioskId,
        pointsEarned: String(summary.pointsEarned),
        newBalance: String(summary.newBalance),
      },
    };
  }
  return {
    title: `You earned ${plural(summary.pointsEarned, 'point')}`,
    body:
      `Thanks for recycling ${plural(summary.totalItems, 'item')} at ${summary.kioskName}. ` +
      `Your balance is now ${plural(summary.newBalance, 'point')}.`,
    data: {
      type: 'transaction',
      transactionId: summary.transactionId,
      kioskId: summary.kioskId,
      pointsEarned: String(summary.pointsEarned),
      newBalance: String(summary.newBalance),
    },
  };
}

/** What a user is told of a redemption: the reward, its code (a voucher's), the balance left. */
export function redemptionNotification(redemption: {
  id: string;
  rewardName: string;
  cost: number;
  code: string | null;
  newBalance: number;
}): NotificationContent {
  const code = redemption.code === null ? '' : ` Your code: ${redemption.code}.`;
  return {
    title: `You redeemed ${redemption.rewardName}`,
    body: `${plural(redemption.cost, 'point')} spent.${code} Your balance is now ${plural(redemption.newBalance, 'point')}.`,
    data: {
      type: 'redemption',
      redemptionId: redemption.id,
      cost: String(redemption.cost),
      newBalance: String(redemption.newBalance),
    },
  };
}

/** What a user is told 30 days before some of their points expire: how many, and the last day they are valid. */
export function pointsExpiringNotification(reminder: {
  id: string;
  points: number;
  lastValidDay: string;
}): NotificationContent {
  return {
    title: `${plural(reminder.points, 'point')} expire soon`,
    body: `${plural(reminder.points, 'point')} of your balance expire after ${reminder.lastValidDay} (UTC): spend them before then.`,
    data: {
      type: 'points-expiring',
      reminderId: reminder.id,
      points: String(reminder.points),
      lastValidDay: reminder.lastValidDay,
    },
  };
}

/** What a user is told when a partner used their voucher (§12): which one, and when. */
export function voucherUsedNotification(use: {
  redemptionId: string;
  rewardName: string;
  usedAt: Date;
}): NotificationContent {
  return {
    title: `Your ${use.rewardName} voucher was used`,
    body: `A partner took your voucher on ${use.usedAt.toISOString().slice(0, 10)}. Enjoy!`,
    data: { type: 'voucher-used', redemptionId: use.redemptionId, usedAt: use.usedAt.toISOString() },
  };
}

/** What a user is told when an operator released or rejected their held points (contract §17). */
export function holdDecisionNotification(decision: {
  transactionId: string;
  kioskId: string;
  resolution: 'released' | 'rejected';
  points: number;
  newBalance: number;
}): NotificationContent {
  const released = decision.resolution === 'released';
  return {
    title: released
      ? `Your ${plural(decision.points, 'point')} are credited`
      : `Your ${plural(decision.points, 'point')} were not credited`,
    body: released
      ? `We checked your deposit and credited it. Your balance is now ${plural(decision.newBalance, 'point')}.`
      : 'We checked your deposit and could not credit its points. Contact support if you think this is wrong.',
    data: {
      type: released ? 'points-released' : 'points-rejected',
      transactionId: decision.transactionId,
      kioskId: decision.kioskId,
      points: String(decision.points),
      newBalance: String(decision.newBalance),
    },
  };
}

/** The push topic operators' devices subscribe to; every opened alert is pushed there once. */
export const OPERATORS_TOPIC = 'operators';

const ALERT_TITLES: Record<AlertKind, string> = {
  'bin-full': 'bin full',
  error: 'error reported',
  silent: 'silent',
  suspicious: 'suspicious throughput, points held',
};

export function alertNotification(alert: { id: string; kioskId: string; kind: AlertKind; detail: string }) {
  return {
    title: `Kiosk ${alert.kioskId}: ${ALERT_TITLES[alert.kind]}`,
    body: alert.detail,
    data: { type: 'alert', alertId: alert.id, kioskId: alert.kioskId, kind: alert.kind },
  } satisfies NotificationContent;
}

/** FCM refuses these data keys; better a clear 400 than a provider error. */
const RESERVED_DATA_KEY = /^(from|notification|message_type|collapse_key)$|^(google|gcm)/i;

export function reservedDataKeys(data: Record<string, string> | undefined | null): string[] {
  return Object.keys(data ?? {}).filter((key) => RESERVED_DATA_KEY.test(key));
}

export function otpMail(otp: string, validityMinutes: number): { subject: string; text: string; html: string } {
  return {
    subject: 'Your Kiosk Rewards verification code',
    text:
      `Your Kiosk Rewards code is ${otp}.\n\n` +
      `It is valid for ${validityMinutes} minutes. If you did not ask for it, ignore this mail.\n`,
    html:
      `<p>Your Kiosk Rewards code is <strong style="font-size:1.4em;letter-spacing:0.2em">${otp}</strong>.</p>` +
      `<p>It is valid for ${validityMinutes} minutes. If you did not ask for it, ignore this mail.</p>`,
  };
}
