/**
 * Text written as HTML in a diagram source (Graphviz's HTML-like labels,
 * Mermaid's `<br>` and entities) as the plain text a label holds: line breaks
 * where the markup breaks lines, tags dropped, entities decoded.
 */

import { decodeHTML, decodeHTMLStrict } from 'entities';

/** An HTML named entity's text (`ast` → `*`, every name HTML defines, case as written), or null. */
function named(body: string): string | null {
  const text = decodeHTMLStrict(`&${body};`);
  return text === `&${body};` ? null : text;
}

/**
 * `&amp;` `&ast;` `&#39;` `&#x2192;` decoded (with `mermaid`, also Mermaid's own
 * `#quot;` `#ast;` `#35;`, and the entities a browser reads without their
 * semicolon, `&nbsp` `&amp` `&lt`, as the browser Mermaid draws in does); an
 * unknown entity kept as written.
 */
export function decodeEntities(text: string, options: { mermaid?: boolean } = {}): string {
  const decoded = decodeWithSemicolons(text, options);
  return options.mermaid ? decoded.replace(/&[a-zA-Z]+(?![a-zA-Z0-9;])/g, (whole) => decodeHTML(whole)) : decoded;
}

function decodeWithSemicolons(text: string, options: { mermaid?: boolean }): string {
  return text.replace(options.mermaid ? /[&#](#?)([a-zA-Z0-9]+);/g : /&(#?)([a-zA-Z0-9]+);/g, (whole, hash: string, body: string) => {
    const numeric = whole.startsWith('&') ? hash === '#' : true;
    if (numeric) {
      const code = /^x[0-9a-f]+$/i.test(body) ? parseInt(body.slice(1), 16) : /^\d+$/.test(body) ? Number(body) : NaN;
      if (Number.isInteger(code) && code > 0 && code <= 0x10ffff) return String.fromCodePoint(code);
      if (whole.startsWith('#')) return named(body) ?? named(body.toLowerCase()) ?? whole;
      return whole;
    }
    return named(body) ?? named(body.toLowerCase()) ?? whole;
  });
}

