import { smtpMailer } from '../../adapters/mail';
import { otpSettings, smtpSettings } from '../../config';
import { sendOtpEmail } from '../../services/otpEmail';
import type { OtpEmailBody } from '../schemas';
import type { Route } from '../types';

/** POST /send-otp-email: mails a code that the caller generated, rate limited. */
export const sendOtpEmailRoute: Route<OtpEmailBody> = {
  method: 'POST',
  path: '/send-otp-email',
  bodySchema: 'otpEmailBody',
  handler: async ({ body, clientIp }) => {
    await sendOtpEmail(smtpMailer(smtpSettings()), otpSettings(), { email: body.email, otp: body.otp, clientIp });
    return { body: { success: true, message: `OTP sent to ${body.email}` } };
  },
};
