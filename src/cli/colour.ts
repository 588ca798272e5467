/**
 * Colour in the diagnostics the commands print, on a terminal only: FORCE_COLOR (not `0`) turns
 * it on, NO_COLOR (https://no-color.org, any value but empty) off, else a stream that is a TTY
 * gets it. A pipe, a file and CI logs get the plain text the tests and scripts read.
 */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (force === '0' || force === 'false') return false;
  return stream.isTTY === true;
}

const SGR = (code: string) => (s: string) => `\u001b[${code}m${s}\u001b[0m`;
const bold = SGR('1');
const red = SGR('1;31');
const yellow = SGR('1;33');
const cyan = SGR('36');

/**
 * A diagnostic in the house format (`where: error CODE: message`, then its frame), coloured:
 * the place bold, the severity and code red or yellow, the frame's gutter dim-cyan and its
 * carets in the severity's colour. Text that is not in that format is returned as it is.
 */
export function paintDiagnostic(text: string): string {
  const [head = '', ...frame] = text.split('\n');
  const m = /^(.*?): (error|warning) ([A-Z_]+): (.*)$/.exec(head);
  if (!m) return text;
  const tone = m[2] === 'error' ? red : yellow;
  const painted = [`${bold(m[1]!)}: ${tone(`${m[2]} ${m[3]}`)}: ${m[4]}`];
  for (const line of frame) {
    const f = /^([> ] *\d* \|)(.*)$/.exec(line);
    if (!f) painted.push(line);
    else if (/^[\s^~]+$/.test(f[2]!) && f[2]!.includes('^')) painted.push(cyan(f[1]!) + tone(f[2]!));
    else painted.push(cyan(f[1]!) + f[2]!);
  }
  return painted.join('\n');
}

/** paintDiagnostic when `stream` gets colour (colourFor), else the text unchanged. */
export function diagnosticFor(stream: { isTTY?: boolean }, text: string): string {
  return colourFor(stream) ? paintDiagnostic(text) : text;
}
