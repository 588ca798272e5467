/** JSON a request sent, read without asserting what it holds. */

/** A JSON object (not null, not a list): what a request body or a variables box must be. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON text parsed, or why it is not JSON (JSON.parse's message). */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
