/**
 * Wiring of the demo pages of `smartcage serve` (kept in the bundle so the pages need no inline
 * script): the 'Build UI from JSON schema' checkbox toggles the element's `build-ui`, and a
 * submit that the form lets through shows the posted JSON and the server's verdict
 * (`POST /api/validate`) instead of leaving the page.
 */
import { demoText } from './demo-text.js';
import type { JsonFieldForm } from './element.js';
import { langOf } from './ui-text.js';

export function mountDemo(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-smartcage-demo]');
  if (!form || form.dataset.mounted) return;
  form.dataset.mounted = '1';
  const field = form.querySelector<JsonFieldForm>('json-field-form');
  const toggle = form.querySelector<HTMLInputElement>('#build-ui');
  const out = doc.querySelector<HTMLElement>('#submitted');
  const server = doc.querySelector<HTMLElement>('#server-result');
  if (!field) return;
  const t = demoText(langOf(form.closest('[lang]')?.getAttribute('lang')));
  toggle?.addEventListener('change', () => {
    field.buildUi = toggle.checked;
  });
  form.addEventListener('submit', (e) => {
    const blocked = e.defaultPrevented; // the element cancels a submit with errors
    e.preventDefault();
    if (blocked) return;
    const text = String(new FormData(form).get(field.getAttribute('name') ?? 'value') ?? '');
    if (out) out.textContent = text;
    if (server) {
      server.textContent = '…';
      void fetch('/api/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schema: field.schema, value: JSON.parse(text) as unknown }),
      })
        .then((r) => r.json())
        .then((r: { errors?: unknown[] }) => {
          server.textContent = r.errors && r.errors.length === 0 ? t.serverValid : t.serverSays(JSON.stringify(r));
        });
    }
  });
}
