/**
 * The last gate before a rendered SVG leaves the renderer: whatever a scene
 * holds, no script, event handler, foreign content or external reference
 * survives. An allow-list of the elements and attributes the editor's exporter
 * writes; everything else is removed. Element links (the exporter wraps a
 * linked element in `<a href>`) are unwrapped: a render is a picture, and
 * the links stay in the scene.
 */
const ALLOWED_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'style', 'metadata', 'symbol', 'use', 'image', 'clipPath', 'mask', 'pattern',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc',
  'linearGradient', 'radialGradient', 'stop', 'filter', 'feGaussianBlur', 'feOffset', 'feFlood', 'feComposite', 'feMerge', 'feMergeNode',
]);
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/;
/** Colours take the CSS forms a scene may hold, or point at a pattern in the document. */
const PAINT_ATTRIBUTES = new Set(['fill', 'stroke', 'stop-color', 'flood-color', 'color']);
const SAFE_PAINT = /^(none|transparent|currentColor|#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([\d\s.,%+-]*\)|[a-z]+|url\(#[\w.-]+\))$/i;
/** url(…) may only point inside the document. */
const EXTERNAL_URL = /url\(\s*(?!['"]?#)/i;

function allowedHref(element: Element, value: string): boolean {
  switch (element.localName) {
    case 'use':
      return value.startsWith('#');
    case 'image':
      return EMBEDDED_IMAGE.test(value);
    default:
      return false;
  }
}

function cleanAttributes(element: Element): void {
  for (const attribute of [...element.attributes]) {
    const name = attribute.name.toLowerCase();
    const keep =
      !name.startsWith('on') &&
      name !== 'xml:base' &&
      (name === 'href' || name === 'xlink:href' ? allowedHref(element, attribute.value) : !EXTERNAL_URL.test(attribute.value)) &&
      (!PAINT_ATTRIBUTES.has(name) || SAFE_PAINT.test(attribute.value.trim()));
    if (!keep) element.removeAttributeNode(attribute);
  }
}

/** Replaces a link with a plain group holding its children. */
function unwrap(link: Element): Element {
  const group = link.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'g');
  while (link.firstChild) group.appendChild(link.firstChild);
  link.replaceWith(group);
  return group;
}

/** Removes, in place, every element and attribute outside the allow-list; `<style>` keeps only font-face rules written by Drawbridge. */
export function sanitizeSvgTree(root: Element): void {
  const walk = (element: Element) => {
    for (let child of [...element.children]) {
      if (child.localName === 'a') child = unwrap(child);
      if (!ALLOWED_ELEMENTS.has(child.localName) || child.namespaceURI !== 'http://www.w3.org/2000/svg') {
        child.remove();
        continue;
      }
      if (child.localName === 'style') child.textContent = '';
      cleanAttributes(child);
      walk(child);
    }
  };
  cleanAttributes(root);
  walk(root);
}
