/** Mail family host code: address grammar, message building, the nodemailer-based default adapter. */
export {
  smtpMailAdapter,
  smtpSender,
  SmtpConfigError,
  SmtpPartialError,
  type SmtpOptions,
  type SmtpMailAdapterOptions,
  type SmtpSender,
  type SmtpDelivery,
  type SmtpMail,
  type MailExtras,
} from './smtp-adapter.js';
export { SendWindow } from './rate.js';
