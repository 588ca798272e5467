/**
 * Every plugin and modifier name the language defines: the spec's tables
 * (seeds/000 "Template Plugin Reference"), Smarty 2's standard set, and the PHP functions the
 * platform allows as modifiers (docs/dialect.md, Modifiers; docs/decisions.md D10).
 *
 * A name listed here but missing from the registry compiles to a clear "not implemented"
 * error; a name listed nowhere is "unknown", with the nearest known name suggested.
 */

export const FUNCTION_NAMES: readonly string[] = [
  // Calling other APIs
  'api', 'api_internal', 'api_method', 'api_mng', 'api_token', 'assign_api_credential',
  // Variables, control and utilities
  'add', 'subtract', 'append', 'assign_array', 'assign_array_set', 'assign_array_diff',
  'assign_array_intersect', 'assign_globals', 'date', 'strtodate', 'uuid', 'lottery', 'set_memory',
  'sleep', 'function', 'return', 'logger', 'html5_check', 'xmltojson', 'rcms_match', 'rcms_match_all',
  'rcms_hash', 'rcms_encrypt', 'secret', 'cookie', 'login', 'logout',
  // Content, member and master data
  'assign_csv_table', 'assign_favorite_cnt', 'assign_my_favorite_cnt', 'assign_group_nm',
  'assign_member_detail', 'assign_new_comment_list', 'assign_pager', 'assign_relation_tag_list',
  'assign_tag_category_list', 'assign_tag_list', 'assign_topics_category_list', 'assign_topics_detail',
  'increment_counter', 'update_counter', 'sync_counter', 'webanalytics', 'refresh_cs', 'child_site',
  // Files and storage
  'copy_s3_temp_file', 'get_file', 'put_file', 'save_file', 'write_file', 'read_dir', 'read_file',
  'remove_dir', 'remove_file', 'rename_file', 'storage_url', 'gzip', 'zip', 'unzip', 'generate_pdf',
  'detect_document_text',
  // Operations, mail and integrations
  'backup', 'backup_delete', 'batch', 'site_sync', 'purge_cdn_cache', 'kick_spider', 'repo_deploy',
  'sendmail', 'cloudfn_token', 'cloudpubsub_publish', 'chat_get_message', 'chat_post_message',
  'chat_team_info', 'social_post_message',
  // Smarty 2 standard functions the dialect keeps
  'assign', 'counter', 'cycle', 'math',
];

export const MODIFIER_NAMES: readonly string[] = [
  // the spec's Modifiers table
  'array_key_exists', 'capitalize', 'cat', 'conv_bool', 'count', 'count_characters', 'count_paragraphs',
  'count_sentences', 'count_words', 'date_format', 'debug_print_var', 'default', 'empty', 'escape',
  'explode', 'split', 'implode', 'join', 'in_array', 'rcms_in_array', 'indent', 'json_decode',
  'rcms_json_encode', 'lower', 'upper', 'strtolower', 'strtoupper', 'mb_truncate', 'mbtruncate',
  'truncate', 'msgpack_pack', 'msgpack_unpack', 'nl2br', 'pg_dateformat', 'pg_dateformat2',
  'property_exists', 'rcms_arsort', 'rcms_asort', 'rcms_krsort', 'rcms_ksort', 'rcms_rsort', 'rcms_sort',
  'rcms_sort_by_key', 'rcms_strip_tags', 'regex_replace', 'replace', 'sort_name', 'spacify',
  'string_format', 'strip_tags', 'substr', 'to_form_options', 'to_object', 'usage_price_format',
  'wordwrap', 'rcms_file_size',
  // Smarty 2 standard modifiers not in that table
  'strip',
  // PHP functions usable as modifiers: the official list ...
  'array_column', 'array_diff', 'array_filter', 'array_keys', 'array_merge', 'array_pop', 'array_push',
  'array_reverse', 'array_search', 'array_shift', 'array_slice', 'array_unique', 'array_values', 'arsort',
  'asort', 'base64_decode', 'base64_encode', 'check_inner_uri', 'defined', 'escapeCSV', 'filter_var',
  'floatval', 'floor', 'getCountryFromIP', 'html_entity_decode', 'htmlspecialchars_decode',
  'http_build_query', 'intval', 'is_array', 'is_numeric', 'json_encode', 'key', 'krsort', 'ksort', 'max',
  'mb_convert_encoding', 'mb_convert_kana', 'mb_strimwidth', 'mb_stripos', 'mb_strlen', 'mb_strpos',
  'mb_strwidth', 'mb_substr', 'md5', 'min', 'mt_rand', 'number_format', 'parse_url', 'password_hash',
  'password_verify', 'pathinfo', 'range', 'rawurldecode', 'round', 'rsort', 'shuffle', 'sort', 'str_pad',
  'stripos', 'strlen', 'strpos', 'strstr', 'strtotime', 'strval', 'trim', 'unset', 'urlencode',
  // ... and the extra names of the source-derived list (docs/decisions.md D10: the union)
  'preg_replace', 'sprintf', 'str_replace', 'ltrim', 'rtrim', 'ceil', 'ucfirst', 'boolval', 'preg_match',
  'array_sum', 'abs', 'substr_count', 'date', 'ucwords',
];

/**
 * Functions callable with call syntax inside {if} (docs/decisions.md D10). The runtime's
 * implementations (rt.ifFn) and the compiler's arity table are typed by IfFunction, so a name
 * added here without both fails the typecheck.
 */
export const IF_FUNCTIONS = ['is_null', 'count', 'is_array', 'in_array', 'isset', 'is_object'] as const;
export type IfFunction = (typeof IF_FUNCTIONS)[number];
