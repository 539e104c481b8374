/** What may be done with a rendered SVG opened directly in a browser (the Content-Security-Policy every SVG answer carries): draw, nothing else. */
export const RENDERED_SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";
