/**
 * Normalises a vendor's architecture icon into the catalog's standalone SVG:
 * the same drawing, in a small, checked subset of SVG.
 *
 * Vendors' icons use gradients, clip paths, masks, class rules in a <style>
 * element and inline `style` attributes. The drawing is kept exactly: the
 * cascade (presentation attribute, then class rule, then inline style) is
 * resolved into plain attributes, ids are renamed after the icon so that two
 * icons never share one, and every reference must point inside the icon.
 * Anything that can run, load, link or that the subset does not know (text,
 * images, filters, foreign elements, external references) refuses the icon.
 * Editor metadata (titles, Inkscape and RDF blocks) is dropped.
 */
import { createRequire } from 'node:module';

// jsdom ships no type declarations; only its DOMParser is used, typed by the DOM lib.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } } };

const SVG_NS = 'http://www.w3.org/2000/svg';

let domParser: DOMParser | undefined;
const parser = () => (domParser ??= new new JSDOM('').window.DOMParser());

export class IconRefused extends Error {}
const refuse = (message: string): never => {
  throw new IconRefused(message);
};

/** Elements kept, with their children. */
const KEPT = new Set(['g', 'defs', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'use']);
/** Elements dropped with their children: descriptions and the stylesheet, which is read first. */
const DROPPED = new Set(['title', 'desc', 'metadata', 'style']);

const GEOMETRY = new Set([
  'd', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'x', 'y', 'width', 'height', 'x1', 'x2', 'y1', 'y2', 'points', 'transform', 'offset',
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'clipPathUnits', 'maskUnits', 'maskContentUnits',
]);
const PRESENTATION = new Set([
  'fill', 'fill-rule', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray',
  'stroke-dashoffset', 'stroke-opacity', 'opacity', 'clip-path', 'clip-rule', 'mask', 'stop-color', 'stop-opacity', 'display', 'visibility', 'paint-order',
]);
/** Properties that cannot change how these shapes are drawn (text styling, editor hints, blending isolation). */
const IGNORED = new Set([
  'class', 'style', 'version', 'data-name', 'xml:space', 'overflow', 'pointer-events', 'isolation', 'enable-background',
  'color', 'font-style', 'font-variant', 'font-weight', 'font-stretch', 'font-size', 'line-height', 'font-family', 'text-indent', 'text-align',
  'text-decoration', 'text-decoration-line', 'letter-spacing', 'word-spacing', 'text-transform', 'writing-mode', 'direction', 'baseline-shift',
  'marker', 'text-anchor', 'baseProfile', 'id', 'href', 'xlink:href',
]);
const REFERENCES = new Set(['fill', 'stroke', 'clip-path', 'mask']);
const SAFE_VALUE = /^[#a-zA-Z0-9.,\s()%+-]*$/;
const LOCAL_URL = /^url\(\s*['"]?#([^'")\s]+)['"]?\s*\)$/;

type Rules = Array<{ className: string; declarations: Array<[string, string]> }>;

/** The document as plain data, read once: jsdom's DOM is slow to query element by element. */
interface PlainElement {
  name: string;
  /** In the SVG namespace (Inkscape's and RDF's own elements are not). */
  svg: boolean;
  /** Attributes without a namespace, and xlink:/xml: ones under their qualified names. */
  attributes: Map<string, string>;
  children: PlainElement[];
  /** Its own text, outside its children. */
  text: string;
}

function plain(element: Element): PlainElement {
  const attributes = new Map<string, string>();
  for (const attribute of element.attributes) {
    if (attribute.namespaceURI !== null && attribute.prefix !== 'xlink' && attribute.prefix !== 'xml') continue; // sodipodi:, inkscape: …
    attributes.set(attribute.name, attribute.value);
  }
  const children: PlainElement[] = [];
  let text = '';
  for (const child of element.childNodes) {
    if (child.nodeType === child.ELEMENT_NODE) children.push(plain(child as Element));
    else if (child.nodeType === child.TEXT_NODE || child.nodeType === child.CDATA_SECTION_NODE) text += child.textContent ?? '';
  }
  return { name: element.localName, svg: element.namespaceURI === SVG_NS, attributes, children, text };
}

function* descendants(element: PlainElement): Generator<PlainElement> {
  for (const child of element.children) {
    yield child;
    yield* descendants(child);
  }
}

function declarationsOf(text: string): Array<[string, string]> {
  return text
    .split(';')
    .map((declaration) => declaration.trim())
    .filter((declaration) => declaration !== '')
    .map((declaration) => {
      const colon = declaration.indexOf(':');
      if (colon < 1) refuse(`unparseable style declaration ${JSON.stringify(declaration)}`);
      return [declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim()] as [string, string];
    });
}

/** Class rules of every <style> element, in document order; selectors other than `.name` refuse the icon. */
function stylesheetRules(root: PlainElement): Rules {
  const rules: Rules = [];
  for (const style of descendants(root)) {
    if (!style.svg || style.name !== 'style') continue;
    const text = style.text.replace(/\/\*[\s\S]*?\*\//g, '');
    const rest = text.replace(/([^{}]+)\{([^}]*)\}/g, (_all, selectors: string, body: string) => {
      const declarations = declarationsOf(body);
      for (const selector of selectors.split(',').map((s) => s.trim())) {
        const match = /^\.([A-Za-z0-9_-]+)$/.exec(selector) ?? refuse(`stylesheet selector ${JSON.stringify(selector)} is not a single class`);
        rules.push({ className: match[1]!, declarations });
      }
      return '';
    });
    if (rest.trim() !== '') refuse(`unparseable stylesheet ${JSON.stringify(rest.trim().slice(0, 40))}`);
  }
  return rules;
}

/**
 * Illustrator writes a luminosity mask that does not clip as a filter that
 * floods its region white and blends the shape over it. Drawn without the
 * filter, that is a white rectangle of the filter's region under the shape.
 */
function whiteBackdrops(root: PlainElement): Map<string, string> {
  const backdrops = new Map<string, string>();
  for (const filter of descendants(root)) {
    if (!filter.svg || filter.name !== 'filter') continue;
    const [flood, blend, ...rest] = filter.children;
    const at = (element: PlainElement | undefined, name: string) => element?.attributes.get(name);
    const region = ['x', 'y', 'width', 'height'].map((name) => at(filter, name));
    if (
      rest.length === 0 && flood?.name === 'feFlood' && blend?.name === 'feBlend' &&
      /^(#fff|#ffffff|white)$/i.test(at(flood, 'flood-color') ?? '') && at(flood, 'flood-opacity') === undefined &&
      at(blend, 'in') === 'SourceGraphic' && at(blend, 'in2') === at(flood, 'result') && (at(blend, 'mode') ?? 'normal') === 'normal' &&
      at(filter, 'filterUnits') === 'userSpaceOnUse' && region.every((value) => value !== undefined && Number.isFinite(Number(value)))
    ) {
      backdrops.set(at(filter, 'id') ?? '', `<rect x="${region[0]}" y="${region[1]}" width="${region[2]}" height="${region[3]}" fill="#fff"/>`);
    }
  }
  return backdrops;
}

function viewBoxOf(root: PlainElement): [number, number, number, number] {
  const viewBox = root.attributes.get('viewBox');
  const numbers = viewBox !== undefined ? viewBox.trim().split(/[\s,]+/).map(Number) : [0, 0, parseFloat(root.attributes.get('width') ?? ''), parseFloat(root.attributes.get('height') ?? '')];
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n)) || numbers[2]! <= 0 || numbers[3]! <= 0) refuse('no usable viewBox, width or height');
  return numbers as [number, number, number, number];
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The icon as a standalone SVG whose longer side is `size` pixels. `prefix`
 * (the icon's name) prefixes its ids. Throws IconRefused when the icon uses
 * anything outside the subset.
 */
export function normaliseVendorSvg(source: string, prefix: string, size: number): string {
  const document = parser().parseFromString(source.replace(/^\s*<\?xml[^>]*\?>/, ''), 'image/svg+xml');
  if (document.getElementsByTagName('parsererror').length > 0) refuse('not well-formed XML');
  if (document.documentElement.namespaceURI !== SVG_NS || document.documentElement.localName !== 'svg') refuse('the root is not an <svg> element');
  const root = plain(document.documentElement);
  const rules = stylesheetRules(root);
  const backdrops = whiteBackdrops(root);

  // Ids are renamed in document order; references are checked once every id is known.
  const ids = new Map<string, string>();
  for (const element of descendants(root)) {
    const id = element.attributes.get('id');
    if (id !== undefined && !ids.has(id)) ids.set(id, `${prefix}-${ids.size}`);
  }
  const reference = (value: string, property: string): string => {
    const local = LOCAL_URL.exec(value);
    if (!local) return refuse(`${property}: a reference outside the icon ${JSON.stringify(value)}`);
    const renamed = ids.get(local[1]!) ?? refuse(`${property}: a reference to a missing id ${JSON.stringify(local[1])}`);
    return `url(#${renamed})`;
  };

  /** The element's attributes as written out, and the white backdrop it is drawn over ('' for none). */
  const attributesOf = (element: PlainElement, presentationOnly = false): { attributes: string[]; backdrop: string } => {
    const properties = new Map(element.attributes);
    const classes = (element.attributes.get('class') ?? '').split(/\s+/).filter(Boolean);
    for (const rule of rules) if (classes.includes(rule.className)) for (const [name, value] of rule.declarations) properties.set(name, value);
    for (const [name, value] of declarationsOf(element.attributes.get('style') ?? '')) properties.set(name, value);

    const out: string[] = [];
    let backdrop = '';
    const id = element.attributes.get('id');
    if (id !== undefined && !presentationOnly) out.push(`id="${ids.get(id)!}"`);
    const href = element.attributes.get('href') ?? element.attributes.get('xlink:href');
    if (href !== undefined && !presentationOnly) {
      if (element.name !== 'use' && !/Gradient$/.test(element.name)) refuse(`<${element.name}>: a link`);
      const target = /^#(.+)$/.exec(href) ?? refuse(`<${element.name}>: a link outside the icon ${JSON.stringify(href)}`);
      out.push(`href="#${ids.get(target[1]!) ?? refuse(`a link to a missing id ${JSON.stringify(target[1])}`)}"`);
    }
    for (const [name, raw] of properties) {
      if (presentationOnly && !PRESENTATION.has(name)) continue;
      if (name === 'filter') {
        const local = LOCAL_URL.exec(raw.trim());
        backdrop = (local && backdrops.get(local[1]!)) ?? refuse(`<${element.name}>: a filter other than a white backdrop`);
        continue;
      }
      if (IGNORED.has(name) || name.startsWith('-inkscape') || name.startsWith('xmlns')) continue;
      if (!GEOMETRY.has(name) && !PRESENTATION.has(name)) refuse(`<${element.name}>: property "${name}" is not in the subset`);
      let value = raw.trim();
      if (/url\s*\(/i.test(value)) {
        if (!REFERENCES.has(name)) refuse(`<${element.name}>: "${name}" holds a reference`);
        value = reference(value, name);
      } else if (!SAFE_VALUE.test(value)) {
        refuse(`<${element.name}>: unsafe value ${JSON.stringify(value)} for "${name}"`);
      }
      if (/currentColor/i.test(value)) refuse(`<${element.name}>: currentColor in "${name}"`);
      out.push(`${name}="${escapeAttribute(value)}"`);
    }
    return { attributes: out, backdrop };
  };

  const write = (element: PlainElement): string => {
    if (element.text.replace(/[\s\u200b\ufeff]/g, '') !== '') refuse(`text inside <${element.name}>`);
    const parts: string[] = [];
    for (const node of element.children) {
      if (!node.svg) continue; // Inkscape's and RDF's own elements
      if (DROPPED.has(node.name) || (node.name === 'filter' && backdrops.has(node.attributes.get('id') ?? ''))) continue;
      if (!KEPT.has(node.name)) refuse(`element <${node.name}> is not in the subset`);
      const { attributes, backdrop } = attributesOf(node);
      const inner = write(node);
      const head = [node.name, ...attributes].join(' ');
      parts.push(backdrop + (inner === '' ? `<${head}/>` : `<${head}>${inner}</${node.name}>`));
    }
    return parts.join('');
  };

  const [minX, minY, width, height] = viewBoxOf(root);
  const rootPresentation = attributesOf(root, true).attributes;
  const body = write(root);
  if (!/<(path|rect|circle|ellipse|line|polyline|polygon|use)\b/.test(body)) refuse('no geometry');
  const scale = size / Math.max(width, height);
  const round = (n: number) => Math.round(n * 100) / 100;
  const head = [`xmlns="${SVG_NS}"`, `width="${round(width * scale)}"`, `height="${round(height * scale)}"`, `viewBox="${[minX, minY, width, height].join(' ')}"`, ...rootPresentation].join(' ');
  return `<svg ${head}>${body}</svg>`;
}
