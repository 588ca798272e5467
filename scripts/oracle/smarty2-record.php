<?php
// Records what real Smarty 2.6.33 on PHP 8.2 makes of templates: the oracle of the dialect's
// Smarty 2 core. Reads one JSON case per line on stdin, writes one JSON line per case on stdout.
//
// Usage: SMARTY2_DIR=/path/to/smarty-2.6.33 php smarty2-record.php < cases.jsonl
//   (SMARTY2_DIR holds libs/Smarty.class.php; the release is not part of this project.)
// Case:   {"id": "...", "template": "...", "vars": {...}, "objects": false, "php_functions": false}
//   php_functions: true renders with security off, so that PHP functions the dialect allows as
//   modifiers beyond Smarty 2's own security list (explode, count with a mode...) run as PHP runs them.
//   default_modifiers: Smarty's $default_modifiers for the case (a list of modifier strings).
//   vars is JSON text decoded with json_decode (objects: true keeps JSON objects as stdClass).
// Result: {"id": ..., "error": false, "output_base64": "<bytes>"} or {"id": ..., "error": true, "message": "..."}
// Rendered with PHP's time zone Asia/Tokyo (the platform's default), security mode on unless php_functions.
error_reporting(E_ALL & ~E_DEPRECATED & ~E_NOTICE & ~E_WARNING);
ini_set('display_errors', '0');
ini_set('precision', '14');
ini_set('serialize_precision', '-1');
date_default_timezone_set('Asia/Tokyo');

$dir = getenv('SMARTY2_DIR');
if (!$dir || !is_file("$dir/libs/Smarty.class.php")) {
    fwrite(STDERR, "smarty2-record: set SMARTY2_DIR to an unpacked Smarty 2.6.33 (libs/Smarty.class.php)\n");
    exit(2);
}
require_once "$dir/libs/Smarty.class.php";

$work = sys_get_temp_dir() . '/smarty2-record-' . getmypid();
@mkdir("$work/templates", 0777, true);
@mkdir("$work/compiled", 0777, true);

class CompileFailed extends Exception {}

while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === '') continue;
    $case = json_decode($line, true);
    $smarty = new Smarty();
    $smarty->template_dir = "$work/templates";
    $smarty->compile_dir = "$work/compiled";
    $smarty->security = !($case['php_functions'] ?? false);
    $smarty->force_compile = true;
    $smarty->default_modifiers = $case['default_modifiers'] ?? [];
    $name = 'case-' . md5($case['id']) . '.tpl';
    file_put_contents("$work/templates/$name", $case['template']);
    foreach (($case['includes'] ?? []) as $incName => $incText) file_put_contents("$work/templates/$incName", $incText);
    $vars = json_decode($case['vars'] ?? '{}', !($case['objects'] ?? false));
    foreach ((array)$vars as $k => $v) $smarty->assign($k, $v);
    // Smarty 2 reports compile errors with trigger_error(E_USER_ERROR): turn them into a result.
    set_error_handler(function ($no, $msg) {
        if ($no === E_USER_ERROR || $no === E_USER_WARNING) throw new CompileFailed($msg);
        return true;
    });
    try {
        ob_start();
        $out = $smarty->fetch($name);
        ob_end_clean();
        echo json_encode(['id' => $case['id'], 'error' => false, 'output_base64' => base64_encode($out)]), "\n";
    } catch (Throwable $e) {
        while (ob_get_level() > 0) ob_end_clean();
        echo json_encode(['id' => $case['id'], 'error' => true, 'message' => substr($e->getMessage(), 0, 300)]), "\n";
    } finally {
        restore_error_handler();
    }
}
