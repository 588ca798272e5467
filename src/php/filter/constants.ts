/**
 * PHP 8.2's filter extension constants (values from `get_defined_constants(true)['filter']`).
 * Templates read the same values through $smarty.const (src/php/constants.ts).
 */
export const FILTER_REQUIRE_SCALAR = 33554432;
export const FILTER_REQUIRE_ARRAY = 16777216;
export const FILTER_FORCE_ARRAY = 67108864;
export const FILTER_NULL_ON_FAILURE = 134217728;

export const FILTER_VALIDATE_INT = 257;
export const FILTER_VALIDATE_BOOL = 258;
export const FILTER_VALIDATE_FLOAT = 259;
export const FILTER_VALIDATE_REGEXP = 272;
export const FILTER_VALIDATE_URL = 273;
export const FILTER_VALIDATE_EMAIL = 274;
export const FILTER_VALIDATE_IP = 275;
export const FILTER_VALIDATE_MAC = 276;
export const FILTER_VALIDATE_DOMAIN = 277;

export const FILTER_SANITIZE_STRING = 513;
export const FILTER_SANITIZE_ENCODED = 514;
export const FILTER_SANITIZE_SPECIAL_CHARS = 515;
export const FILTER_UNSAFE_RAW = 516;
export const FILTER_DEFAULT = 516; // FILTER_UNSAFE_RAW's value, as in PHP
export const FILTER_SANITIZE_EMAIL = 517;
export const FILTER_SANITIZE_URL = 518;
export const FILTER_SANITIZE_NUMBER_INT = 519;
export const FILTER_SANITIZE_NUMBER_FLOAT = 520;
export const FILTER_SANITIZE_FULL_SPECIAL_CHARS = 522;
export const FILTER_SANITIZE_ADD_SLASHES = 523;
export const FILTER_CALLBACK = 1024;

export const FILTER_FLAG_ALLOW_OCTAL = 1;
export const FILTER_FLAG_ALLOW_HEX = 2;
export const FILTER_FLAG_STRIP_LOW = 4;
export const FILTER_FLAG_STRIP_HIGH = 8;
export const FILTER_FLAG_ENCODE_LOW = 16;
export const FILTER_FLAG_ENCODE_HIGH = 32;
export const FILTER_FLAG_ENCODE_AMP = 64;
export const FILTER_FLAG_NO_ENCODE_QUOTES = 128;
export const FILTER_FLAG_EMPTY_STRING_NULL = 256;
export const FILTER_FLAG_STRIP_BACKTICK = 512;
export const FILTER_FLAG_ALLOW_FRACTION = 4096;
export const FILTER_FLAG_ALLOW_THOUSAND = 8192;
export const FILTER_FLAG_ALLOW_SCIENTIFIC = 16384;
export const FILTER_FLAG_PATH_REQUIRED = 262144;
export const FILTER_FLAG_QUERY_REQUIRED = 524288;
export const FILTER_FLAG_IPV4 = 1048576;
export const FILTER_FLAG_IPV6 = 2097152;
export const FILTER_FLAG_NO_RES_RANGE = 4194304;
export const FILTER_FLAG_NO_PRIV_RANGE = 8388608;
export const FILTER_FLAG_GLOBAL_RANGE = 268435456;
export const FILTER_FLAG_HOSTNAME = 1048576;
export const FILTER_FLAG_EMAIL_UNICODE = 1048576;
