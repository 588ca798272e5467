/** The JSON_* constants of PHP 8.2 (values as in ext/json). */
export const JSON_HEX_TAG = 1;
export const JSON_HEX_AMP = 2;
export const JSON_HEX_APOS = 4;
export const JSON_HEX_QUOT = 8;
export const JSON_FORCE_OBJECT = 16;
export const JSON_NUMERIC_CHECK = 32;
export const JSON_UNESCAPED_SLASHES = 64;
export const JSON_PRETTY_PRINT = 128;
export const JSON_UNESCAPED_UNICODE = 256;
export const JSON_PARTIAL_OUTPUT_ON_ERROR = 512;
export const JSON_PRESERVE_ZERO_FRACTION = 1024;
export const JSON_UNESCAPED_LINE_TERMINATORS = 2048;
export const JSON_OBJECT_AS_ARRAY = 1;
export const JSON_BIGINT_AS_STRING = 2;
export const JSON_INVALID_UTF8_IGNORE = 1048576;
export const JSON_INVALID_UTF8_SUBSTITUTE = 2097152;
export const JSON_THROW_ON_ERROR = 4194304;

/** Nesting limit of json_encode/json_decode when none is given. */
export const JSON_DEFAULT_DEPTH = 512;
