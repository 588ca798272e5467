<?php
// The PHP oracle: reads one JSON request per line on stdin, calls a PHP function, and
// writes one JSON line with the exact result. Used by tests and fixture generators.
//
// Request:  {"fn": "sprintf", "args": [...], "tz": "Asia/Tokyo"}   (tz optional)
//   args are JSON; {"$float": 1} forces a float, {"$bytes": "<base64>"} a raw byte string,
//   {"$int": "9007199254740993"} an int given by its digits (JSON numbers are doubles to JavaScript),
//   {"$assoc": [[key, value], ...]} an array with explicit keys in that order,
//   {"$const": "JSON_PRETTY_PRINT"} a PHP constant.
// Response: {"ok": true, "value": <tagged>, "out": <tagged extra>} or {"ok": false, "error": "..."}
//   tagged: null, true/false, {"int": n}, {"float": "repr"}, {"str": "<base64 bytes>"},
//           {"arr": [[key, tagged], ...]}, {"obj": [[name, tagged], ...]}
//   An int past 2^53 (value or array key) is written as its digits, a JSON string: JavaScript
//   reads JSON numbers as doubles, which would round it.
error_reporting(E_ALL & ~E_DEPRECATED);
ini_set('display_errors', '0');
ini_set('precision', '14');
ini_set('serialize_precision', '-1');

function untag($v) {
    if (is_array($v)) {
        if (array_key_exists('$float', $v)) return (float)$v['$float'];
        if (array_key_exists('$int', $v)) return (int)$v['$int'];
        if (array_key_exists('$bytes', $v)) return base64_decode($v['$bytes']);
        if (array_key_exists('$const', $v)) return constant($v['$const']);
        if (array_key_exists('$assoc', $v)) {
            $out = [];
            foreach ($v['$assoc'] as $pair) $out[$pair[0]] = untag($pair[1]);
            return $out;
        }
        return array_map('untag', $v);
    }
    return $v;
}

// Beyond 2^53 JavaScript's JSON.parse would round an int: it travels as its digits.
function exact_int($n) {
    return $n > 9007199254740991 || $n < -9007199254740991 ? (string)$n : $n;
}

function tag($v) {
    if ($v === null || is_bool($v)) return $v;
    if (is_int($v)) return ['int' => exact_int($v)];
    if (is_float($v)) {
        if (is_nan($v)) return ['float' => 'NAN'];
        if (is_infinite($v)) return ['float' => $v > 0 ? 'INF' : '-INF'];
        return ['float' => var_export($v, true)];
    }
    if (is_string($v)) return ['str' => base64_encode($v)];
    if (is_array($v)) {
        $out = [];
        foreach ($v as $k => $x) $out[] = [is_int($k) ? exact_int($k) : $k, tag($x)];
        return ['arr' => $out];
    }
    if (is_object($v)) {
        $out = [];
        foreach (get_object_vars($v) as $k => $x) $out[] = [$k, tag($x)];
        return ['obj' => $out];
    }
    return ['str' => base64_encode((string)$v)];
}

while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === '') continue;
    $req = json_decode($line, true);
    date_default_timezone_set($req['tz'] ?? 'Asia/Tokyo');
    $args = array_map('untag', $req['args'] ?? []);
    $warnings = [];
    set_error_handler(function ($no, $str) use (&$warnings) { $warnings[] = $str; return true; });
    try {
        $fn = $req['fn'];
        if (in_array($fn, ['preg_match', 'preg_match_all'], true)) {
            // by-reference $matches: report it as "out"
            $m = null;
            $a = $args;
            $r = $fn($a[0], $a[1], $m, $a[2] ?? 0, $a[3] ?? 0);
            $resp = ['ok' => true, 'value' => tag($r), 'out' => tag($m)];
        } elseif ($fn === 'preg_replace') {
            // by-reference $count: report it as "out"
            $n = null;
            $a = $args;
            $r = preg_replace($a[0], $a[1], $a[2], $a[3] ?? -1, $n);
            $resp = ['ok' => true, 'value' => tag($r), 'out' => tag($n)];
        } elseif ($fn === '__eval') {
            // {"fn":"__eval","args":["return 1+1;"]}: for expressions that are not one call
            $resp = ['ok' => true, 'value' => tag(eval($args[0]))];
        } else {
            $resp = ['ok' => true, 'value' => tag($fn(...$args))];
        }
    } catch (Throwable $e) {
        $resp = ['ok' => false, 'error' => get_class($e) . ': ' . $e->getMessage()];
    }
    restore_error_handler();
    if ($warnings) $resp['warnings'] = $warnings;
    // Warnings may quote the subject's invalid bytes: substitute them rather than lose the line.
    echo json_encode($resp, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
