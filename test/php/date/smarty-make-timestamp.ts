/**
 * Smarty 2's make_timestamp rule as a PHP snippet for the live-PHP oracle (written for these
 * tests): empty -> now, 14 digits -> mktime of its parts, numeric -> int, else strtotime, and now
 * when strtotime cannot read it. `$GLOBALS['__in']` holds the input.
 */
export function smartyMakeTimestampPhp(now: number): string {
  return `
    $string = $GLOBALS['__in'];
    if (empty($string)) { $time = ${now}; }
    elseif (preg_match('/^\\d{14}$/', $string)) {
      $time = mktime(substr($string, 8, 2), substr($string, 10, 2), substr($string, 12, 2), substr($string, 4, 2), substr($string, 6, 2), substr($string, 0, 4));
    } elseif (is_numeric($string)) { $time = (int)$string; }
    else { $time = strtotime($string, ${now}); if ($time == -1 || $time === false) { $time = ${now}; } }
    return $time;`;
}
