/** Mail family host code: address grammar, message building, the nodemailer-based default adapter. */
export { parseAddress, parseAddressList, canonicalDomain, domainOf, isDotAtom, MAX_ADDRESS_LENGTH } from './address.js';
export {
  buildMessage,
  headerSafe,
  encodedWords,
  quotedPrintable,
  base64Lines,
  chooseEncoding,
  newMessageId,
} from './message.js';
export {
  smtpMailAdapter,
  smtpSender,
  SmtpConfigError,
  SmtpPartialError,
  type SmtpOptions,
  type SmtpMailAdapterOptions,
  type SmtpSender,
  type SmtpDelivery,
} from './smtp-adapter.js';
export { SendWindow, type SendWindowOptions } from './rate.js';
