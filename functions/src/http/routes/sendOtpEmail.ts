import { smtpMailer } from '../../adapters/mail';
import { otpSettings, smtpSettings } from '../../config';
import { sendOtpEmail as sendCode } from '../../services/otpEmail';
import type { OtpEmailBody } from '../schemas';
import type { Route } from '../types';

/** POST /send-otp-email: mails a code that the caller generated, rate limited. */
export const sendOtpEmail: Route<OtpEmailBody> = {
  method: 'POST',
  path: '/send-otp-email',
  bodySchema: 'otpEmailBody',
  handler: async ({ body, clientIp }) => {
    await sendCode(smtpMailer(smtpSettings()), otpSettings(), { email: body.email, otp: body.otp, clientIp });
    return { body: { success: true, message: `OTP sent to ${body.email}` } };
  },
};
