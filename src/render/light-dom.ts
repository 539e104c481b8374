/**
 * A light document for the editor's SVG exporter. The exporter only builds a
 * tree (createElementNS, setAttribute, textContent, appendChild, a few
 * queries); jsdom, which the editor's bundle needs to load, does that with a
 * full DOM's bookkeeping and spends as long on it as the exporter on its
 * drawing. linkedom's XML document builds the same tree several times faster;
 * the exporter is handed it for the length of one export, in place of the
 * global `document` it creates its root and text nodes with.
 *
 * linkedom drops the namespace of setAttributeNS; the exporter puts one
 * attribute in the SVG namespace (a frame's `clip-path`), and browsers and
 * jsdom keep it there (so it is written `ns1:clip-path`). The light document
 * remembers the namespace on the attribute (ATTRIBUTE_NAMESPACE), for the
 * serializer (svg-xml.ts) to write the same document. It also lists an
 * element's attributes newest first (it links each new one in right after its
 * element); attributesOf gives them in the DOM's order, first set first.
 *
 * The exporter also asks the global document for a canvas, to measure a frame
 * name too wide for its frame: canvases come from the document the editor was
 * loaded with (jsdom, whose canvas has the stub context editor-runtime.ts gives it).
 */
import { DOMParser } from 'linkedom';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** Where the light document keeps an attribute's namespace (read by svg-xml.ts). */
export const ATTRIBUTE_NAMESPACE = Symbol('attribute namespace');

let lightDocument: Document | undefined;
/** Whether the light document lists attributes newest first (probed, so a linkedom that fixes it keeps working). */
let listsAttributesNewestFirst = false;

function createLightDocument(loadingDocument: Document | undefined): Document {
  const document = new DOMParser().parseFromString(`<svg xmlns="${SVG_NAMESPACE}"></svg>`, 'image/svg+xml') as unknown as Document;
  let prototype: any = Object.getPrototypeOf(document.documentElement);
  while (prototype && !Object.hasOwn(prototype, 'setAttributeNS')) prototype = Object.getPrototypeOf(prototype);
  if (!prototype) throw new Error("linkedom's elements have no setAttributeNS to extend");
  Object.defineProperty(prototype, 'setAttributeNS', {
    configurable: true,
    writable: true,
    value(this: Element, namespace: string | null, qualifiedName: string, value: string) {
      this.setAttribute(qualifiedName, value);
      const attribute = this.getAttributeNode(qualifiedName) as (Attr & { [ATTRIBUTE_NAMESPACE]?: string }) | null;
      if (attribute && namespace) attribute[ATTRIBUTE_NAMESPACE] = namespace;
    },
  });
  // A copy keeps its attributes' namespaces (linkedom's cloneNode makes plain attributes).
  const cloneNode = prototype.cloneNode as (this: Element, deep?: boolean) => Element;
  Object.defineProperty(prototype, 'cloneNode', {
    configurable: true,
    writable: true,
    value(this: Element, deep?: boolean) {
      const copy = cloneNode.call(this, deep);
      const originals = deep ? [this, ...this.querySelectorAll('*')] : [this];
      const copies = deep ? [copy, ...copy.querySelectorAll('*')] : [copy];
      originals.forEach((original, at) => {
        for (const attribute of original.attributes as unknown as Iterable<Attr & { [ATTRIBUTE_NAMESPACE]?: string }>) {
          const namespace = attribute[ATTRIBUTE_NAMESPACE];
          const copied = namespace && (copies[at]!.getAttributeNode(attribute.name) as (Attr & { [ATTRIBUTE_NAMESPACE]?: string }) | null);
          if (copied) copied[ATTRIBUTE_NAMESPACE] = namespace;
        }
      });
      return copy;
    },
  });
  if (loadingDocument) {
    const createElement = document.createElement.bind(document);
    Object.defineProperty(document, 'createElement', {
      configurable: true,
      writable: true,
      value: (name: string, options?: ElementCreationOptions) => (name.toLowerCase() === 'canvas' ? loadingDocument.createElement(name, options) : createElement(name, options)),
    });
  }
  const probe = document.createElementNS(SVG_NAMESPACE, 'g');
  probe.setAttribute('a', '');
  probe.setAttribute('b', '');
  listsAttributesNewestFirst = probe.attributes[0]!.name === 'b';
  return document;
}

/** An element's attributes in the order they were first set, as a DOM lists them. */
export function attributesOf(element: Element): Attr[] {
  const attributes = [...(element.attributes as unknown as Iterable<Attr>)];
  return lightDocument !== undefined && listsAttributesNewestFirst && element.ownerDocument === lightDocument ? attributes.reverse() : attributes;
}

/**
 * Runs `build` with the light document as the global `document`, and puts the
 * previous one back after (a render worker runs one export at a time; the
 * editor's other uses of the DOM keep jsdom's).
 */
export async function inLightDocument<T>(build: () => Promise<T>): Promise<T> {
  const previous = Object.getOwnPropertyDescriptor(globalThis, 'document');
  lightDocument ??= createLightDocument(previous?.value as Document | undefined);
  Object.defineProperty(globalThis, 'document', { value: lightDocument, configurable: true, writable: true });
  try {
    return await build();
  } finally {
    if (previous) Object.defineProperty(globalThis, 'document', previous);
    else delete (globalThis as { document?: unknown }).document;
  }
}
