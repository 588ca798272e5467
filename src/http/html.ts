/** Text put into HTML: the five characters that could end an element or an attribute, as character references. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
