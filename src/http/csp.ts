/** The Content-Security-Policies of what the project's HTTP servers answer. */

/**
 * Our pages (docs/decisions.md D45): scripts only from this origin and no 'unsafe-eval'
 * (validators come precompiled from /validators/), no inline script. Styles may be inline: the
 * form element adds its default `<style>` and sizes the rich-text editor.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A user's file, served as it is: nothing it holds may run or load anything, even when opened as a page. */
export const FILE_CSP = "default-src 'none'; sandbox";
