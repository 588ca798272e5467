<?php
// Renders templates with Debian's Smarty 3.1 (smarty3 package) for the differential test.
// One JSON request per line on stdin: {"template": "...", "vars": {...}, "includes": {name: source}}
// One JSON line out: {"ok": true, "output": "<base64>"} or {"ok": false, "error": "..."}
// Smarty 3 differs from Smarty 2 in documented places (docs/dialect.md, "Smarty 3 is not Smarty 2");
// the test only compares cases that do not touch them.
require_once '/usr/share/php/smarty3/Smarty.class.php';
// Smarty 3.1.47's own SmartyCompilerException redeclares Exception::$line without its int type,
// a fatal error on PHP 8.2 the first time a template fails to compile. Declare it first, typed.
class SmartyCompilerException extends SmartyException
{
    public int $line = 0;
    public $source = null;
    public $desc = null;
    public $template = null;
    public function __toString() { return ' --> Smarty Compiler: ' . $this->message . ' <-- '; }
}
date_default_timezone_set('Asia/Tokyo');
error_reporting(E_ALL & ~E_NOTICE & ~E_WARNING & ~E_DEPRECATED);
ini_set('display_errors', '0');

$work = sys_get_temp_dir() . '/smartcage-smarty3-' . getmypid();
@mkdir($work);
@mkdir("$work/templates");
@mkdir("$work/compile");

while (($line = fgets(STDIN)) !== false) {
    $req = json_decode($line, true);
    if (!is_array($req)) continue;
    foreach (glob("$work/templates/*") as $f) unlink($f);
    foreach (($req['includes'] ?? []) as $name => $src) file_put_contents("$work/templates/" . basename($name), $src);
    $smarty = new Smarty();
    $smarty->setTemplateDir("$work/templates");
    $smarty->setCompileDir("$work/compile");
    $smarty->setCacheDir("$work/compile");
    $smarty->force_compile = true;
    $smarty->error_reporting = E_ALL & ~E_NOTICE & ~E_WARNING & ~E_DEPRECATED;
    foreach (($req['vars'] ?? []) as $k => $v) $smarty->assign($k, $v);
    try {
        $out = $smarty->fetch('string:' . $req['template']);
        echo json_encode(['ok' => true, 'output' => base64_encode($out)]), "\n";
    } catch (Throwable $e) {
        echo json_encode(['ok' => false, 'error' => get_class($e) . ': ' . substr($e->getMessage(), 0, 300)]), "\n";
    }
}
