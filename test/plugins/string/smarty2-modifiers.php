<?php
// Reference bodies of the Smarty 2.6.33 modifiers (libs/plugins/modifier.*.php), written from
// smarty2-semantics.md §8 and the Smarty 2.6 source, plus the platform's changes and the
// platform modifiers as this project defines them. The tests call these through the PHP
// oracle's __eval and compare with the TypeScript implementations.

function smarty_modifier_capitalize($string, $uc_digits = false)
{
    smarty_modifier_capitalize_ucfirst(null, $uc_digits);
    return preg_replace_callback('!\'?\b\w(\w|\')*\b!', 'smarty_modifier_capitalize_ucfirst', $string);
}

function smarty_modifier_capitalize_ucfirst($string, $uc_digits = null)
{
    static $_uc_digits = false;
    if (isset($uc_digits)) {
        $_uc_digits = $uc_digits;
        return;
    }
    if (substr($string[0], 0, 1) != "'" && !preg_match("!\d!", $string[0]) || $_uc_digits)
        return ucfirst($string[0]);
    else
        return $string[0];
}

// platform: non-scalar operands count as ''
function smarty_modifier_cat($string, $cat = '')
{
    $s = fn($v) => is_scalar($v) ? (string)$v : '';
    return $s($string) . $s($cat);
}

function smarty_modifier_count_characters($string, $include_spaces = false)
{
    if ($include_spaces)
        return (strlen($string));
    return preg_match_all("/[^\s]/", $string, $match);
}

function smarty_modifier_count_paragraphs($string)
{
    return count(preg_split('/[\r\n]+/', $string));
}

function smarty_modifier_count_sentences($string)
{
    return preg_match_all('/[^\s]\.(?!\w)/', $string, $match);
}

function smarty_modifier_count_words($string)
{
    $split_array = preg_split('/\s+/', $string);
    $word_count = preg_grep('/[a-zA-Z0-9\\x80-\\xff]/', $split_array);
    return count($word_count);
}

function smarty_modifier_default($string, $default = '')
{
    if (!isset($string) || $string === '')
        return $default;
    else
        return $string;
}

// platform: char_set defaults to UTF-8; null and non-scalars give ''; scalars become strings
function smarty_modifier_escape($string, $esc_type = 'html', $char_set = 'UTF-8')
{
    if (!is_scalar($string)) return '';
    $orig = $string;
    $string = (string)$string;
    switch ($esc_type) {
        case 'html':
            return htmlspecialchars($string, ENT_QUOTES, $char_set);
        case 'htmlall':
            return htmlentities($string, ENT_QUOTES, $char_set);
        case 'url':
            return rawurlencode($string);
        case 'urlpathinfo':
            return str_replace('%2F', '/', rawurlencode($string));
        case 'quotes':
            return preg_replace("%(?<!\\\\)'%", "\\'", $string);
        case 'hex':
            $return = '';
            for ($x = 0; $x < strlen($string); $x++) {
                $return .= '%' . bin2hex($string[$x]);
            }
            return $return;
        case 'hexentity':
            $return = '';
            for ($x = 0; $x < strlen($string); $x++) {
                $return .= '&#x' . bin2hex($string[$x]) . ';';
            }
            return $return;
        case 'decentity':
            $return = '';
            for ($x = 0; $x < strlen($string); $x++) {
                $return .= '&#' . ord($string[$x]) . ';';
            }
            return $return;
        case 'javascript':
            return strtr($string, array('\\' => '\\\\', "'" => "\\'", '"' => '\\"', "\r" => '\\r', "\n" => '\\n', '</' => '<\/'));
        case 'mail':
            return str_replace(array('@', '.'), array(' [AT] ', ' [DOT] '), $string);
        case 'nonstd':
            $_res = '';
            for ($_i = 0, $_len = strlen($string); $_i < $_len; $_i++) {
                $_ord = ord(substr($string, $_i, 1));
                if ($_ord >= 126) {
                    $_res .= '&#' . $_ord . ';';
                } else {
                    $_res .= substr($string, $_i, 1);
                }
            }
            return $_res;
        default:
            return $orig;
    }
}

function smarty_modifier_indent($string, $chars = 4, $char = " ")
{
    return preg_replace('!^!m', str_repeat($char, $chars), $string);
}

function smarty_modifier_lower($string) { return strtolower($string); }
function smarty_modifier_upper($string) { return strtoupper($string); }

function smarty_modifier_replace($string, $search, $replace)
{
    return str_replace($search, $replace, $string);
}

function smarty_modifier_spacify($string, $spacify_char = ' ')
{
    return implode($spacify_char, preg_split('//', $string, -1, PREG_SPLIT_NO_EMPTY));
}

function smarty_modifier_strip($text, $replace = ' ')
{
    return preg_replace('!\s+!', $replace, $text);
}

function smarty_modifier_strip_tags($string, $replace_with_space = true)
{
    if ($replace_with_space)
        return preg_replace('!<[^>]*?>!', ' ', $string);
    else
        return strip_tags($string);
}

function smarty_modifier_truncate($string, $length = 80, $etc = '...', $break_words = false, $middle = false)
{
    if ($length == 0)
        return '';
    if (strlen($string) > $length) {
        $length -= min($length, strlen($etc));
        if (!$break_words && !$middle) {
            $string = preg_replace('/\s+?(\S+)?$/', '', substr($string, 0, $length + 1));
        }
        if (!$middle) {
            return substr($string, 0, $length) . $etc;
        } else {
            return substr($string, 0, $length / 2) . $etc . substr($string, -$length / 2);
        }
    } else {
        return $string;
    }
}

function smarty_modifier_wordwrap($string, $length = 80, $break = "\n", $cut = false)
{
    return wordwrap($string, $length, $break, $cut);
}

// platform default length 300
function smarty_modifier_debug_print_var($var, $depth = 0, $length = 300)
{
    $_replace = array("\n" => '<i>\n</i>', "\r" => '<i>\r</i>', "\t" => '<i>\t</i>');
    switch (gettype($var)) {
        case 'array':
            $results = '<b>Array (' . count($var) . ')</b>';
            foreach ($var as $curr_key => $curr_val) {
                $results .= '<br>' . str_repeat('&nbsp;', $depth * 2)
                    . '<b>' . strtr($curr_key, $_replace) . '</b> =&gt; '
                    . smarty_modifier_debug_print_var($curr_val, ++$depth, $length);
                $depth--;
            }
            break;
        case 'object':
            $object_vars = get_object_vars($var);
            $results = '<b>' . get_class($var) . ' Object (' . count($object_vars) . ')</b>';
            foreach ($object_vars as $curr_key => $curr_val) {
                $results .= '<br>' . str_repeat('&nbsp;', $depth * 2)
                    . '<b> -&gt;' . strtr($curr_key, $_replace) . '</b> = '
                    . smarty_modifier_debug_print_var($curr_val, ++$depth, $length);
                $depth--;
            }
            break;
        case 'boolean':
        case 'NULL':
        case 'resource':
            if (true === $var) {
                $results = 'true';
            } elseif (false === $var) {
                $results = 'false';
            } elseif (null === $var) {
                $results = 'null';
            } else {
                $results = htmlspecialchars((string) $var);
            }
            $results = '<i>' . $results . '</i>';
            break;
        case 'integer':
        case 'float':
            $results = htmlspecialchars((string) $var);
            break;
        case 'string':
            $results = strtr($var, $_replace);
            if (strlen($var) > $length) {
                $results = substr($var, 0, $length - 3) . '...';
            }
            $results = htmlspecialchars('"' . $results . '"');
            break;
        case 'unknown type':
        default:
            $results = strtr((string) $var, $_replace);
            if (strlen($results) > $length) {
                $results = substr($results, 0, $length - 3) . '...';
            }
            $results = htmlspecialchars($results);
    }
    return $results;
}

// ---- platform modifiers, as this project defines them ----

function smarty_modifier_mb_truncate($string, $length = 80, $etc = '...', $break_words = false, $middle = false)
{
    if ($length == 0)
        return '';
    if (mb_strlen($string) > $length) {
        $length -= min($length, mb_strlen($etc));
        if (!$break_words && !$middle) {
            $string = preg_replace('/\s+?(\S+)?$/', '', mb_substr($string, 0, $length + 1));
        }
        if (!$middle) {
            return mb_substr($string, 0, $length) . $etc;
        } else {
            return mb_substr($string, 0, intval($length / 2)) . $etc . mb_substr($string, intval(-$length / 2));
        }
    }
    return $string;
}

function smarty_modifier_mbtruncate($string, $length = 80, $etc = '...')
{
    return mb_strlen($string) > $length ? mb_substr($string, 0, max(0, $length)) . $etc : $string;
}

function smarty_modifier_strtolower($s) { return is_scalar($s) || $s === null ? strtolower((string)$s) : ''; }
function smarty_modifier_strtoupper($s) { return is_scalar($s) || $s === null ? strtoupper((string)$s) : ''; }
function smarty_modifier_substr($s, $start, $length = null) { return is_scalar($s) || $s === null ? substr((string)$s, $start, $length) : ''; }

function smarty_modifier_conv_bool($v)
{
    if (is_string($v)) {
        $w = strtolower(trim($v));
        if (in_array($w, ['true', '1', 'on', 'yes'], true)) return true;
        if (in_array($w, ['false', '0', 'off', 'no', ''], true)) return false;
        return true;
    }
    return (bool)$v;
}

function smarty_modifier_empty($v)
{
    if (is_object($v)) return count(get_object_vars($v)) === 0;
    return empty($v);
}

function smarty_modifier_escapeCSV($v)
{
    if (!is_scalar($v) && $v !== null) return '';
    $s = (string)$v;
    return preg_match('/[",\r\n]/', $s) ? '"' . str_replace('"', '""', $s) . '"' : $s;
}

function smarty_modifier_usage_price_format($v, $edge_flg = false)
{
    if ($v === null || $v === '' || !is_scalar($v)) return '';
    if (!is_numeric($v)) return '';
    $n = round((float)$v);
    return ($n < 0 ? '-' : '') . '¥' . number_format(abs($n));
}

function smarty_modifier_sort_name($last, $first = '', $lang = 'ja')
{
    $s = fn($v) => is_scalar($v) ? (string)$v : '';
    $parts = strncasecmp($lang, 'en', 2) === 0 ? [$s($first), $s($last)] : [$s($last), $s($first)];
    return implode(' ', array_filter($parts, fn($p) => $p !== ''));
}

function smarty_modifier_rcms_strip_tags($s, $allowed = null) { return strip_tags($s, $allowed); }
