/**
 * The export look on the editor's SVG (faithful renderer): the dark theme as
 * filter primitives on a group rather than the editor's CSS filter on the
 * root, which resvg ignores and browsers apply unevenly to an SVG's root, and
 * the underlay a chosen background in the dark theme is painted as.
 * Runs after sanitising: what it adds is Drawbridge's own markup.
 */
import { type ExportLook, type SvgNode, themeFilter } from './options.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const THEME_FILTER_ID = 'theme-dark';
/** What stays outside the themed group: definitions and metadata, not drawing. */
const NOT_DRAWN = new Set(['defs', 'metadata', 'style', 'title', 'desc']);

/** An SvgNode (options.ts) as elements of the export's document, which parses no markup. */
function build(document: Document, { name, attributes, children }: SvgNode): Element {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  for (const child of children) element.appendChild(build(document, child));
  return element;
}

export function applyExportLook(root: SVGSVGElement, look: ExportLook): void {
  root.removeAttribute('filter');
  const document = root.ownerDocument;
  const [, , width, height] = (root.getAttribute('viewBox') ?? '0 0 0 0').trim().split(/[\s,]+/).map(Number);
  if (look.appState.exportWithDarkMode) {
    const group = document.createElementNS(SVG_NS, 'g');
    group.setAttribute('filter', `url(#${THEME_FILTER_ID})`);
    for (const child of [...root.childNodes]) {
      if (child.nodeType === child.ELEMENT_NODE && NOT_DRAWN.has((child as Element).localName)) continue;
      group.appendChild(child);
    }
    root.appendChild(group);
    const defs = root.querySelector('defs') ?? root.insertBefore(document.createElementNS(SVG_NS, 'defs'), root.firstChild);
    defs.appendChild(build(document, themeFilter(THEME_FILTER_ID, width ?? 0, height ?? 0)));
  }
  if (look.underlay) {
    const rect = document.createElementNS(SVG_NS, 'rect');
    for (const [name, value] of Object.entries({ x: '0', y: '0', width: String(width), height: String(height), fill: look.underlay })) rect.setAttribute(name, value);
    const firstDrawn = [...root.children].find((child) => !NOT_DRAWN.has(child.localName)) ?? null;
    root.insertBefore(rect, firstDrawn);
  }
}
