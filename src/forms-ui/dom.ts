/** DOM helpers of the form UI: element creation, and text input that waits for the IME. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * Calls `handler` on each edit of a text control, except while an IME composition is going on
 * (Japanese input: the text is not final yet): then once at `compositionend`. So the stored
 * value and the error messages never see an intermediate (unconverted) state, and nothing is
 * re-rendered under the composition. Chrome fires the last `input` before `compositionend`
 * (with isComposing), Firefox after it (without): the handler may run twice with the same
 * final text, which sets the same value.
 */
export function onTextInput(c: HTMLElement, handler: () => void): void {
  c.addEventListener('input', (e) => {
    if (e instanceof InputEvent && e.isComposing) return;
    handler();
  });
  c.addEventListener('compositionend', () => handler());
}
