/** Mail family host code: address grammar, message building, SMTP client, default adapter. */
export { parseAddress, parseAddressList, canonicalDomain, domainOf, isDotAtom, MAX_ADDRESS_LENGTH } from './address.js';
export { buildMessage, headerSafe, encodedWords, quotedPrintable, base64Lines, chooseEncoding } from './message.js';
export { sendSmtp, dotStuff, SmtpError, type SmtpOptions, type SmtpEnvelope } from './smtp-client.js';
export { smtpMailAdapter, type SmtpMailAdapterOptions } from './smtp-adapter.js';
export { SendWindow, type SendWindowOptions } from './rate.js';
