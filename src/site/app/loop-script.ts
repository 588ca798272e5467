/**
 * The script of the preview and playground pages (/_loop/loop.js; the pages' CSP allows no inline
 * script). Plain browser JavaScript as text: it is small, and the pages work without it too (the
 * preview's form is a GET, the playground's a POST that answers with the page).
 */
export const LOOP_SCRIPT_PATH = '/_loop/loop.js';

export const LOOP_SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);

  // The preview: reload the frame when the site's files change.
  const frame = $('preview-frame');
  if (frame && window.EventSource) {
    const status = $('preview-status');
    const events = new EventSource(frame.dataset.events);
    events.addEventListener('change', () => {
      frame.src = frame.getAttribute('src');
      status.textContent = 'Reloaded at ' + new Date().toLocaleTimeString() + ' (a file changed).';
    });
    events.addEventListener('open', () => (status.textContent = 'Watching the site for changes.'));
    events.addEventListener('error', () => (status.textContent = 'Not watching: the server is gone; reload the page.'));
  }

  // The playground: render without leaving the page.
  const form = $('playground');
  if (form) {
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const status = $('pg-status');
      status.textContent = 'Rendering...';
      try {
        const r = await fetch(form.action, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ template: $('pg-template').value, vars: $('pg-vars').value }),
        });
        const a = await r.json();
        $('pg-output').srcdoc = a.output || '';
        $('pg-output-text').textContent = a.output || '';
        $('pg-error').textContent = a.error || '';
        $('pg-warnings').textContent = (a.warnings || []).join('\\n\\n') || 'None.';
        $('pg-code').textContent = a.code || '';
        status.textContent = a.error ? 'Failed.' : 'Rendered.';
      } catch (e) {
        status.textContent = 'The server did not answer: ' + e.message;
      }
    });
  }
})();
`;
