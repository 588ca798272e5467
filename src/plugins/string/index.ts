import base64Decode from './base64_decode.js';
import base64Encode from './base64_encode.js';
import capitalize from './capitalize.js';
import cat from './cat.js';
import convBool from './conv_bool.js';
import countCharacters from './count_characters.js';
import countParagraphs from './count_paragraphs.js';
import countSentences from './count_sentences.js';
import countWords from './count_words.js';
import defaultModifier from './default.js';
import empty from './empty.js';
import escapeCSV from './escapeCSV.js';
import indent from './indent.js';
import lower from './lower.js';
import ltrim from './ltrim.js';
import mbConvertEncoding from './mb_convert_encoding.js';
import mbStrimwidth from './mb_strimwidth.js';
import mbStripos from './mb_stripos.js';
import mbStrlen from './mb_strlen.js';
import mbStrpos from './mb_strpos.js';
import mbStrwidth from './mb_strwidth.js';
import mbSubstr from './mb_substr.js';
import mbTruncate from './mb_truncate.js';
import mbtruncate from './mbtruncate.js';
import md5 from './md5.js';
import rawurldecode from './rawurldecode.js';
import replace from './replace.js';
import rtrim from './rtrim.js';
import sortName from './sort_name.js';
import spacify from './spacify.js';
import strPad from './str_pad.js';
import strReplace from './str_replace.js';
import strip from './strip.js';
import stripos from './stripos.js';
import strlen from './strlen.js';
import strpos from './strpos.js';
import strstr from './strstr.js';
import strtolower from './strtolower.js';
import strtoupper from './strtoupper.js';
import substr from './substr.js';
import substrCount from './substr_count.js';
import trim from './trim.js';
import truncate from './truncate.js';
import ucfirst from './ucfirst.js';
import ucwords from './ucwords.js';
import upper from './upper.js';
import urlencode from './urlencode.js';
import usagePriceFormat from './usage_price_format.js';
import wordwrap from './wordwrap.js';
import type { Plugin } from '../types.js';

export const plugins: Plugin[] = [
  base64Decode,
  base64Encode,
  capitalize,
  cat,
  convBool,
  countCharacters,
  countParagraphs,
  countSentences,
  countWords,
  defaultModifier,
  empty,
  escapeCSV,
  indent,
  lower,
  ltrim,
  mbConvertEncoding,
  mbStrimwidth,
  mbStripos,
  mbStrlen,
  mbStrpos,
  mbStrwidth,
  mbSubstr,
  mbTruncate,
  mbtruncate,
  md5,
  rawurldecode,
  replace,
  rtrim,
  sortName,
  spacify,
  strPad,
  strReplace,
  strip,
  stripos,
  strlen,
  strpos,
  strstr,
  strtolower,
  strtoupper,
  substr,
  substrCount,
  trim,
  truncate,
  ucfirst,
  ucwords,
  upper,
  urlencode,
  usagePriceFormat,
  wordwrap,
];
