/**
 * FILTER_VALIDATE_EMAIL and FILTER_VALIDATE_REGEXP: both are a PCRE match in PHP, run here
 * through our PCRE implementation (src/php/pcre). The e-mail patterns are PHP 8.2's own
 * (logical_filters.c, based on Michael Rushton's), character for character.
 */
import { pregMatch } from '../pcre/preg.js';
import { FILTER_FLAG_EMAIL_UNICODE } from './constants.js';
import { FAILED, type FilterInput, type Filtered, filterValueError, stringOption } from './options.js';

const LOCAL_ASCII = '[\\x21\\x23-\\x27\\x2A\\x2B\\x2D\\x2F-\\x39\\x3D\\x3F\\x5E-\\x7E';
const QUOTED_ASCII = '[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\x21\\x23-\\x5B\\x5D-\\x7F';

function emailPattern(unicode: boolean): string {
  const letters = unicode ? '\\pL\\pN' : '';
  const atom = `(?:${LOCAL_ASCII}${letters}]+)`;
  const quoted = `(?:\\x22(?:${QUOTED_ASCII}${letters}]|(?:\\x5C[\\x00-\\x7F]))*\\x22)`;
  const word = `(?:${atom}|${quoted})`;
  const octet = '(?:(?:25[0-5])|(?:2[0-4][0-9])|(?:1[0-9]{2})|(?:[1-9]?[0-9]))';
  return (
    '/^(?!(?:(?:\\x22?\\x5C[\\x00-\\x7E]\\x22?)|(?:\\x22?[^\\x5C\\x22]\\x22?)){255,})' +
    '(?!(?:(?:\\x22?\\x5C[\\x00-\\x7E]\\x22?)|(?:\\x22?[^\\x5C\\x22]\\x22?)){65,}@)' +
    `${word}(?:\\.${word})*@` +
    '(?:(?:(?!.*[^.]{64,})(?:(?:(?:xn--)?[a-z0-9]+(?:-+[a-z0-9]+)*\\.){1,126}){1,}(?:(?:[a-z][a-z0-9]*)|(?:(?:xn--)[a-z0-9]+))(?:-+[a-z0-9]+)*)' +
    '|(?:\\[(?:(?:IPv6:(?:(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){7})|(?:(?!(?:.*[a-f0-9][:\\]]){7,})(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){0,5})?::(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){0,5})?)))' +
    '|(?:(?:IPv6:(?:(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){5}:)|(?:(?!(?:.*[a-f0-9]:){5,})(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){0,3})?::(?:[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){0,3}:)?)))?' +
    `${octet}(?:\\.${octet}){3}))\\]))$/iD${unicode ? 'u' : ''}`
  );
}

const EMAIL_PATTERN = emailPattern(false);
const EMAIL_PATTERN_UNICODE = emailPattern(true);

export function validateEmail(input: FilterInput): Filtered {
  // The maximum length of an e-mail address is 320 octets (RFC 2821).
  if (input.bin.length > 320) return FAILED;
  const pattern = input.flags & FILTER_FLAG_EMAIL_UNICODE ? EMAIL_PATTERN_UNICODE : EMAIL_PATTERN;
  return pregMatch(pattern, input.text, 0, 0, input.warn).result === 1 ? input.text : FAILED;
}

export function validateRegexp(input: FilterInput): Filtered {
  const regexp = stringOption(input, 'regexp');
  if (regexp === undefined) throw filterValueError('"regexp" option is missing');
  return pregMatch(regexp, input.text, 0, 0, input.warn).result === 1 ? input.text : FAILED;
}
