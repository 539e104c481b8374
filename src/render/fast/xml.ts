/**
 * The only way markup is written for the fast renderer: element and attribute
 * names are literals in this code, attribute values and text are escaped here,
 * so nothing from a scene can open a tag or an attribute.
 */

export type Attributes = Record<string, string | number | null | undefined>;

/** Characters XML 1.0 forbids (C0 controls other than tab and line breaks, U+FFFE/U+FFFF, lone surrogates). */
const NOT_XML = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|\p{Cs}/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeXml(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** A number as SVG writes it: at most two decimals (the editor's export precision), never NaN or -0. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const rounded = Math.round(value * 100) / 100;
  return String(rounded === 0 ? 0 : rounded);
}

/** An element; `children` is markup already built by these functions. Nullish attributes are left out. */
export function tag(name: string, attributes: Attributes, children = ''): string {
  let markup = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    markup += ` ${key}="${typeof value === 'number' ? num(value) : escapeXml(value)}"`;
  }
  return children === '' ? `${markup}/>` : `${markup}>${children}</${name}>`;
}

/** A text node. */
export function text(value: string): string {
  return escapeXml(value);
}

/** An SVG transform that places a local drawing at (x, y) and turns it by `angle` radians about (cx, cy). */
export function placement(x: number, y: number, angle: number, cx: number, cy: number): string {
  const translate = `translate(${num(x)} ${num(y)})`;
  return angle === 0 ? translate : `${translate} rotate(${num((angle * 180) / Math.PI)} ${num(cx)} ${num(cy)})`;
}
