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
}

/**
 * Mails a one-time code, within the per-mailbox and per-client-network limits. Only a
 * mail the SMTP server accepted counts against them.
 */
export async function sendOtpEmail(
  mailer: Mailer,
  policy: OtpPolicy,
  request: { email: string; otp: string; clientIp: string },
): Promise<void> {
  const buckets: Bucket[] = [
    { scope: 'otp-address', key: mailboxKey(request.email), ...policy.perAddress },
    { scope: 'otp-ip', key: clientNetworkKey(request.clientIp), ...policy.perIp },
  ];
  const reservation = await reserve(buckets);
  if (!reservation.reserved) {
    const who = reservation.bucket.scope === 'otp-address' ? 'this address' : 'this client';
    logWarn('otp_rate_limited', { scope: reservation.bucket.scope, retryAfterSeconds: reservation.retryAfterSeconds });
    throw new ApiError(
      429,
      'rate-limited',
      `Too many codes requested for ${who}; try again in ${reservation.retryAfterSeconds} seconds`,
      { 'Retry-After': String(reservation.retryAfterSeconds) },
    );
  }
  try {
    const messageId = await mailer.send({ to: request.email, ...otpMail(request.otp, policy.validityMinutes) });
    logInfo('otp_mail_sent', { messageId });
  } catch (error) {
    await release(buckets, reservation.id);
    const reason = error instanceof MailDeliveryError ? error.reason : 'unknown';
    logError('otp_mail_failed', { reason });
    throw new ApiError(502, 'mail-delivery-failed', 'The mail server could not send the code; try again later');
  }
}
