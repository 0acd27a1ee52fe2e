import { smtpMailer } from '../../adapters/mail';
import { otpSettings, smtpSettings } from '../../config';
import { sendOtpEmail } from '../../services/otpEmail';
import type { OtpEmailBody } from '../../model/requestBodies';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
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
  doc: {
    operationId: 'sendOtpEmail',
    summary: 'Mail a one-time code',
    description:
      'Mails a code the caller generated (the service does not keep it). Rate limited per mailbox (every ' +
      'spelling of one address counts as one: case, `+tags`, dots in Gmail addresses; by default 3 mails per 10 ' +
      'minutes) and per client network (by default 30 per hour), under a ceiling for the whole service (by default ' +
      '1,000 per hour); a refused or failed send does not count.',
    tag: 'Sign-in',
    access: 'public',
    example: { email: 'alice@example.com', otp: '482913' },
    responses: {
      200: {
        description: 'The mail server accepted the mail',
        schema: ({ Type, successBody }) => successBody({ message: Type.String() }),
        example: { success: true, message: 'OTP sent to alice@example.com' },
      },
      400: { description: '`email` is not a valid address or `otp` is not 4-10 digits', codes: ['invalid-argument'] },
      429: {
        description:
          'Too many codes for this address or this client, or for the whole service right now; try again after ' +
          '`Retry-After` seconds',
        codes: ['rate-limited'],
        headers: ['Retry-After'],
      },
      502: {
        description: 'The mail server could not send the code; it does not count against the limits',
        codes: ['mail-delivery-failed'],
      },
      503: overloadedAnswer,
    },
  },
};
