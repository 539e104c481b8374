/**
 * The last gate before a rendered SVG leaves the renderer: whatever a scene
 * holds, no script, event handler, foreign content or external reference
 * survives. An allow-list of the elements and attributes the editor's exporter
 * writes; everything else is removed.
 */
const ALLOWED_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'style', 'metadata', 'symbol', 'use', 'image', 'clipPath', 'mask', 'pattern',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'a', 'title', 'desc',
  'linearGradient', 'radialGradient', 'stop', 'filter', 'feGaussianBlur', 'feOffset', 'feFlood', 'feComposite', 'feMerge', 'feMergeNode',
]);
const LINK_SCHEME = /^(https?:|mailto:)/i;
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/;
/** url(…) may only point inside the document. */
const EXTERNAL_URL = /url\(\s*(?!['"]?#)/i;

function allowedHref(element: Element, value: string): boolean {
  switch (element.localName) {
    case 'use':
      return value.startsWith('#');
    case 'image':
      return EMBEDDED_IMAGE.test(value);
    case 'a':
      return LINK_SCHEME.test(value.trim());
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
      (name === 'href' || name === 'xlink:href' ? allowedHref(element, attribute.value) : !EXTERNAL_URL.test(attribute.value));
    if (!keep) element.removeAttributeNode(attribute);
  }
}

/** Removes, in place, every element and attribute outside the allow-list; `<style>` keeps only font-face rules written by Drawbridge. */
export function sanitizeSvgTree(root: Element): void {
  const walk = (element: Element) => {
    for (const child of [...element.children]) {
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
