/**
 * The smallest document the editor's SVG exporter can build its drawing in:
 * elements with ordered attributes (namespaces kept), text and comments, and
 * the few tree operations and selectors the exporter, the sanitizer
 * (sanitize.ts) and the faithful renderer use. No events, no observers, no
 * layout, no live collections: a DOM emulation spends as long on those as the
 * exporter on its drawing, and an SVG for export needs none of them.
 *
 * Whatever it does, it does as a DOM does (test/render/light-dom.test.ts
 * checks that every scene gives the same document as in jsdom); what it does
 * not do throws, so a new use by the exporter fails loudly rather than drawing
 * something else.
 */

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

export class TreeAttr {
  readonly namespaceURI: string | null;
  readonly name: string;
  value: string;
  constructor(namespaceURI: string | null, name: string, value: string) {
    this.namespaceURI = namespaceURI;
    this.name = name;
    this.value = value;
  }

  get localName(): string {
    return this.namespaceURI === null ? this.name : this.name.slice(this.name.indexOf(':') + 1);
  }

  get prefix(): string | null {
    const colon = this.name.indexOf(':');
    return this.namespaceURI === null || colon < 0 ? null : this.name.slice(0, colon);
  }
}

abstract class TreeNode {
  parentNode: TreeElement | null = null;
  abstract readonly nodeType: number;

  readonly ownerDocument: TreeDocument;
  constructor(ownerDocument: TreeDocument) {
    this.ownerDocument = ownerDocument;
  }

  get parentElement(): TreeElement | null {
    return this.parentNode;
  }

  get nextSibling(): TreeNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) + 1] ?? null) : null;
  }

  get previousSibling(): TreeNode | null {
    const siblings = this.parentNode?.childNodes;
    return siblings ? (siblings[siblings.indexOf(this) - 1] ?? null) : null;
  }

  remove(): void {
    this.parentNode?.removeChild(this);
  }

  replaceWith(...nodes: Array<TreeNode | string>): void {
    const parent = this.parentNode;
    if (!parent) return;
    const inserted = nodes.map((node) => (typeof node === 'string' ? this.ownerDocument.createTextNode(node) : node));
    for (const node of inserted) node.remove();
    const at = parent.childNodes.indexOf(this);
    parent.childNodes.splice(at, 1, ...inserted);
    this.parentNode = null;
    for (const node of inserted) node.parentNode = parent;
  }

  abstract get textContent(): string;
  abstract cloneNode(deep?: boolean): TreeNode;
}

class TreeCharacterData extends TreeNode {
  readonly nodeType: 3 | 8;
  data: string;
  constructor(ownerDocument: TreeDocument, nodeType: 3 | 8, data: string) {
    super(ownerDocument);
    this.nodeType = nodeType;
    this.data = data;
  }

  get nodeValue(): string {
    return this.data;
  }

  set nodeValue(value: string) {
    this.data = value;
  }

  get textContent(): string {
    return this.data;
  }

  set textContent(value: string) {
    this.data = value;
  }

  cloneNode(): TreeCharacterData {
    return new TreeCharacterData(this.ownerDocument, this.nodeType, this.data);
  }
}

/** One step of a selector: a tag name (or `*`) and an id, and how it relates to the step before. */
interface SelectorStep {
  tag: string;
  id: string | null;
  combinator: ' ' | '>';
}

/** CSS identifiers without escapes: what the exporter's selectors hold (tag names, element ids of its own making). */
const IDENTIFIER = /^-?[_a-zA-Z\u00a0-\uffff][\w\u00a0-\uffff-]*$/;

function parseSelector(selector: string): SelectorStep[] {
  const steps: SelectorStep[] = [];
  let combinator: ' ' | '>' = ' ';
  for (const token of selector.trim().split(/\s*(>)\s*|\s+/).filter((part) => part !== undefined && part !== '')) {
    if (token === '>') {
      combinator = '>';
      continue;
    }
    const match = /^([^#]*)(?:#(.*))?$/.exec(token)!;
    const tag = match[1] || '*';
    const id = match[2] ?? null;
    if ((tag !== '*' && !IDENTIFIER.test(tag)) || (id !== null && !IDENTIFIER.test(id))) {
      throw new SyntaxError(`'${selector}' is not a selector this document supports`);
    }
    steps.push({ tag, id, combinator });
    combinator = ' ';
  }
  if (steps.length === 0) throw new SyntaxError(`'${selector}' is not a valid selector`);
  return steps;
}

function matchesStep(element: TreeElement, step: SelectorStep): boolean {
  return (step.tag === '*' || element.localName === step.tag) && (step.id === null || element.getAttribute('id') === step.id);
}

/** Whether `element` matches the steps up to `last`, its ancestors matching the ones before (as in a DOM, beyond the element queried from too). */
function matches(element: TreeElement, steps: SelectorStep[], last: number): boolean {
  if (!matchesStep(element, steps[last]!)) return false;
  if (last === 0) return true;
  const { combinator } = steps[last]!;
  for (let ancestor = element.parentNode; ancestor; ancestor = ancestor.parentNode) {
    if (matches(ancestor, steps, last - 1)) return true;
    if (combinator === '>') return false;
  }
  return false;
}

/** `element.style`: properties set on it are written to the style attribute, as a DOM does. */
function styleOf(element: TreeElement): Record<string, string> {
  const properties = new Map<string, string>();
  return new Proxy({} as Record<string, string>, {
    get: (_target, name) => (typeof name === 'string' ? (properties.get(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)) ?? '') : undefined),
    set: (_target, name, value) => {
      if (typeof name !== 'string') return false;
      const property = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      if (value === '' || value === null || value === undefined) properties.delete(property);
      else properties.set(property, String(value));
      element.setAttribute('style', [...properties].map(([key, v]) => `${key}: ${v};`).join(' '));
      return true;
    },
  });
}

export class TreeElement extends TreeNode {
  readonly nodeType = 1;
  readonly childNodes: TreeNode[] = [];
  readonly attributes: TreeAttr[] = [];
  private styleProxy: Record<string, string> | undefined;

  readonly namespaceURI: string | null;
  readonly localName: string;
  constructor(ownerDocument: TreeDocument, namespaceURI: string | null, localName: string) {
    super(ownerDocument);
    this.namespaceURI = namespaceURI;
    this.localName = localName;
  }

  get nodeName(): string {
    return this.namespaceURI === HTML_NAMESPACE ? this.localName.toUpperCase() : this.localName;
  }

  get tagName(): string {
    return this.nodeName;
  }

  get id(): string {
    return this.getAttribute('id') ?? '';
  }

  set id(value: string) {
    this.setAttribute('id', value);
  }

  get style(): Record<string, string> {
    return (this.styleProxy ??= styleOf(this));
  }

  get classList(): { add(...names: string[]): void; contains(name: string): boolean } {
    const names = () => (this.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
    return {
      add: (...added: string[]) => this.setAttribute('class', [...new Set([...names(), ...added])].join(' ')),
      contains: (name: string) => names().includes(name),
    };
  }

  get children(): TreeElement[] {
    return this.childNodes.filter((node): node is TreeElement => node.nodeType === 1);
  }

  get firstChild(): TreeNode | null {
    return this.childNodes[0] ?? null;
  }

  get lastChild(): TreeNode | null {
    return this.childNodes.at(-1) ?? null;
  }

  get firstElementChild(): TreeElement | null {
    return this.children[0] ?? null;
  }

  get textContent(): string {
    return this.childNodes.map((node) => (node.nodeType === 8 ? '' : node.textContent)).join('');
  }

  set textContent(value: string) {
    for (const node of this.childNodes) node.parentNode = null;
    this.childNodes.length = 0;
    if (value !== '') this.appendChild(this.ownerDocument.createTextNode(value));
  }

  getAttributeNode(name: string): TreeAttr | null {
    for (const attribute of this.attributes) if (attribute.name === name) return attribute;
    return null;
  }

  getAttribute(name: string): string | null {
    return this.getAttributeNode(name)?.value ?? null;
  }

  hasAttribute(name: string): boolean {
    return this.getAttributeNode(name) !== null;
  }

  setAttribute(name: string, value: unknown): void {
    const existing = this.getAttributeNode(name);
    if (existing) existing.value = String(value);
    else this.attributes.push(new TreeAttr(null, name, String(value)));
  }

  setAttributeNS(namespace: string | null, name: string, value: unknown): void {
    const existing = this.attributes.find((attribute) => attribute.namespaceURI === namespace && attribute.localName === name.slice(name.indexOf(':') + 1));
    if (existing) existing.value = String(value);
    else this.attributes.push(new TreeAttr(namespace || null, name, String(value)));
  }

  removeAttribute(name: string): void {
    const at = this.attributes.findIndex((attribute) => attribute.name === name);
    if (at >= 0) this.attributes.splice(at, 1);
  }

  removeAttributeNode(attribute: TreeAttr): TreeAttr {
    const at = this.attributes.indexOf(attribute);
    if (at < 0) throw new Error('the attribute is not on this element');
    this.attributes.splice(at, 1);
    return attribute;
  }

  appendChild<T extends TreeNode>(node: T): T {
    if (!(node instanceof TreeNode)) throw new TypeError('only nodes of this document can be inserted');
    node.remove();
    this.childNodes.push(node);
    node.parentNode = this;
    return node;
  }

  insertBefore<T extends TreeNode>(node: T, reference: TreeNode | null): T {
    if (!(node instanceof TreeNode)) throw new TypeError('only nodes of this document can be inserted');
    node.remove();
    const at = reference === null ? this.childNodes.length : this.childNodes.indexOf(reference);
    if (at < 0) throw new Error('the reference node is not a child of this element');
    this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }

  removeChild<T extends TreeNode>(node: T): T {
    const at = this.childNodes.indexOf(node);
    if (at < 0) throw new Error('the node is not a child of this element');
    this.childNodes.splice(at, 1);
    node.parentNode = null;
    return node;
  }

  append(...nodes: Array<TreeNode | string>): void {
    for (const node of nodes) this.appendChild(typeof node === 'string' ? this.ownerDocument.createTextNode(node) : node);
  }

  prepend(...nodes: Array<TreeNode | string>): void {
    const first = this.firstChild;
    for (const node of nodes) this.insertBefore(typeof node === 'string' ? this.ownerDocument.createTextNode(node) : node, first);
  }

  querySelectorAll(selector: string): TreeElement[] {
    const steps = parseSelector(selector);
    const found: TreeElement[] = [];
    const walk = (element: TreeElement) => {
      for (const child of element.childNodes) {
        if (child.nodeType !== 1) continue;
        if (matches(child as TreeElement, steps, steps.length - 1)) found.push(child as TreeElement);
        walk(child as TreeElement);
      }
    };
    walk(this);
    return found;
  }

  querySelector(selector: string): TreeElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }

  cloneNode(deep = false): TreeElement {
    const copy = new TreeElement(this.ownerDocument, this.namespaceURI, this.localName);
    for (const attribute of this.attributes) copy.attributes.push(new TreeAttr(attribute.namespaceURI, attribute.name, attribute.value));
    if (deep) for (const child of this.childNodes) copy.appendChild(child.cloneNode(true));
    return copy;
  }
}

export class TreeDocument {
  /**
   * `createCanvas` answers createElement('canvas'): the exporter measures a
   * frame name too wide for its frame on one, which this document does not draw.
   */
  private readonly createCanvas: () => unknown;
  constructor(createCanvas: () => unknown) {
    this.createCanvas = createCanvas;
  }

  createElementNS(namespace: string | null, qualifiedName: string): TreeElement {
    return new TreeElement(this, namespace || null, qualifiedName.slice(qualifiedName.indexOf(':') + 1));
  }

  createElement(name: string): unknown {
    if (name.toLowerCase() === 'canvas') return this.createCanvas();
    return new TreeElement(this, HTML_NAMESPACE, name.toLowerCase());
  }

  createTextNode(data: string): TreeNode {
    return new TreeCharacterData(this, 3, String(data));
  }

  createComment(data: string): TreeNode {
    return new TreeCharacterData(this, 8, String(data));
  }
}
