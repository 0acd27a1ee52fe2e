import { randomInt } from 'node:crypto';
import { logError, logInfo, logWarn } from '../log';
import { MailDeliveryError, type Mailer } from '../adapters/mail';
import type { RateLimit } from '../config';
import { release, reserve, type Bucket } from '../data/rateLimits';
import { otpMail } from '../domain/messages';
import { clientNetworkKey, mailboxKey } from '../domain/quotaKeys';
import { ApiError } from '../errors';

export interface OtpPolicy {
  validityMinutes: number;
  perAddress: RateLimit;
  perIp: RateLimit;
  /** Over every address and network together. */
  global: RateLimit;
}

/**
 * The global ceiling is kept in this many buckets, each with a tenth of it, and each
 * mail counts in one drawn at random: no single document takes every mail's write
 * (Firestore sustains about one write a second per document), and together they never
 * let more than the ceiling through. A drawn bucket may be full while others are not,
 * so refusals start a little before the ceiling under heavy use.
 */
export const GLOBAL_OTP_SHARDS = 10;

export const globalOtpBucket = (global: RateLimit, shard = randomInt(GLOBAL_OTP_SHARDS)): Bucket => ({
  scope: 'otp-global',
  key: `shard-${shard}`,
  limit: Math.floor(global.limit / GLOBAL_OTP_SHARDS),
  windowMs: global.windowMs,
});

const REFUSED_FOR: Record<string, string> = {
  'otp-address': 'Too many codes requested for this address',
  'otp-ip': 'Too many codes requested for this client',
  'otp-global': 'Too many codes are being requested right now',
};

/**
 * Mails a one-time code, within the per-mailbox and per-client-network limits and the
 * service's global ceiling. Only a mail the SMTP server accepted counts against them.
 */
export async function sendOtpEmail(
  mailer: Mailer,
  policy: OtpPolicy,
  request: { email: string; otp: string; clientIp: string },
): Promise<void> {
  const buckets: Bucket[] = [
    { scope: 'otp-address', key: mailboxKey(request.email), ...policy.perAddress },
    { scope: 'otp-ip', key: clientNetworkKey(request.clientIp), ...policy.perIp },
    globalOtpBucket(policy.global),
  ];
  const reservation = await reserve(buckets);
  if (!reservation.reserved) {
    const { scope } = reservation.bucket;
    const details = { scope, retryAfterSeconds: reservation.retryAfterSeconds };
    // The ceiling reached is the service's alarm, not one client's bad luck.
    if (scope === 'otp-global') logError('otp_global_limit_reached', details);
    else logWarn('otp_rate_limited', details);
    throw new ApiError('rate-limited', `${REFUSED_FOR[scope]}; try again in ${reservation.retryAfterSeconds} seconds`, {
      retryAfterSeconds: reservation.retryAfterSeconds,
    });
  }
  try {
    const messageId = await mailer.send({ to: request.email, ...otpMail(request.otp, policy.validityMinutes) });
    logInfo('otp_mail_sent', { messageId });
  } catch (error) {
    await release(buckets, reservation.id);
    const reason = error instanceof MailDeliveryError ? error.reason : 'unknown';
    logError('otp_mail_failed', { reason });
    throw new ApiError('mail-delivery-failed', 'The mail server could not send the code; try again later');
  }
}
