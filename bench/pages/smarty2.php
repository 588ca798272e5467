<?php
// The multi-page benchmark's Smarty 2.6.33 peer (bench/pages.ts): a long-running PHP 8.2 process,
// OPcache on (php -d opcache.enable_cli=1), that renders each page N times and reports the CPU
// time per render. Each render is what a request of the PHP platform does for its page: a new
// Smarty, the variables assigned, fetch() of a template compiled once (compile_check off: no
// stat per render, PHP's best case). Reading the data (json_decode) is not timed.
//
// Usage: SMARTY2_DIR=/path/to/smarty-2.6.33 php -d opcache.enable_cli=1 smarty2.php < job.json
// Job:    {"renders": N, "pages": [{"name": ..., "template": ..., "vars": "<JSON text>", "timezone": ...}]}
// Answer: {"opcache": bool, "php": version, "pages": [{"name": ..., "output": ..., "cpuUs": µs per render}]}
error_reporting(E_ALL & ~E_DEPRECATED & ~E_NOTICE & ~E_WARNING);
ini_set('display_errors', '0');
ini_set('precision', '14');
ini_set('serialize_precision', '-1');

$dir = getenv('SMARTY2_DIR');
if (!$dir || !is_file("$dir/libs/Smarty.class.php")) {
    fwrite(STDERR, "smarty2.php: set SMARTY2_DIR to an unpacked Smarty 2.6.33 (libs/Smarty.class.php)\n");
    exit(2);
}
require_once "$dir/libs/Smarty.class.php";

// The platform's modifiers that Smarty 2 lacks, written for this benchmark: join (PHP 8 refuses
// implode's old argument order that `{$a|@join:", "}` would give) and mb_truncate (Smarty's
// truncate counted in characters).
function bench_modifier_join($a, $sep = '') { return implode($sep, $a); }
function bench_modifier_mb_truncate($s, $length = 80, $etc = '...', $breakWords = false, $middle = false) {
    if ($length == 0) return '';
    if (mb_strlen($s) <= $length) return $s;
    $length -= min($length, mb_strlen($etc));
    if (!$breakWords && !$middle) $s = preg_replace('/\s+?(\S+)?$/', '', mb_substr($s, 0, $length + 1));
    if (!$middle) return mb_substr($s, 0, $length) . $etc;
    return mb_substr($s, 0, intdiv($length, 2)) . $etc . mb_substr($s, -intdiv($length, 2));
}

$job = json_decode(stream_get_contents(STDIN), true);
$work = sys_get_temp_dir() . '/smartcage-bench-smarty2-' . getmypid();
@mkdir("$work/templates", 0777, true);
@mkdir("$work/compiled", 0777, true);

function smarty_for($work) {
    $s = new Smarty();
    $s->template_dir = "$work/templates";
    $s->compile_dir = "$work/compiled";
    $s->compile_check = false;
    $s->security = false;
    $s->register_modifier('join', 'bench_modifier_join');
    $s->register_modifier('mb_truncate', 'bench_modifier_mb_truncate');
    return $s;
}

function cpu_us() {
    $r = getrusage();
    return $r['ru_utime.tv_sec'] * 1e6 + $r['ru_utime.tv_usec'] + $r['ru_stime.tv_sec'] * 1e6 + $r['ru_stime.tv_usec'];
}

$out = [];
foreach ($job['pages'] as $page) {
    date_default_timezone_set($page['timezone']);
    $name = $page['name'] . '.tpl';
    file_put_contents("$work/templates/$name", $page['template']);
    $vars = json_decode($page['vars'], true);
    $render = function () use ($work, $vars, $name) {
        $s = smarty_for($work);
        foreach ($vars as $k => $v) $s->assign($k, $v);
        return $s->fetch($name);
    };
    $output = $render();
    $n = max(1, intdiv($job['renders'], 5));
    for ($i = 0; $i < $n; $i++) $render();
    $t0 = cpu_us();
    for ($i = 0; $i < $job['renders']; $i++) $render();
    $out[] = ['name' => $page['name'], 'output' => $output, 'cpuUs' => (cpu_us() - $t0) / $job['renders']];
}
$status = function_exists('opcache_get_status') ? opcache_get_status(false) : false;
echo json_encode(['opcache' => is_array($status) && $status['opcache_enabled'], 'php' => PHP_VERSION, 'pages' => $out]);
foreach (glob("$work/*/*") as $f) @unlink($f);
@rmdir("$work/templates");
@rmdir("$work/compiled");
@rmdir($work);
