/**
 * An exported SVG tree as XML text, written directly rather than through a
 * DOM's XMLSerializer (the light document of light-dom.ts has none that
 * writes XML as browsers do). The output is what the DOM Parsing spec's XML
 * serialization gives (jsdom's and browsers' XMLSerializer): the root declares
 * its namespace, childless elements close as `<path …/>`, attribute values
 * escape `& " < >` and tab, line feed and carriage return, text escapes
 * `& < >`, and an attribute in a namespace gets a generated `ns1:` prefix
 * declared where it is used. Characters XML 1.0 does not allow become U+FFFD,
 * so a label pasted with one cannot break the document.
 */
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** Characters XML 1.0 does not allow (controls, U+FFFE/U+FFFF, lone surrogates). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const xmlSafe = (text: string) => text.replace(NOT_XML, '\uFFFD');

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };
const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/** Anything escapeAttribute or escapeText would change: most values (path data, numbers, colours) have none, and are written after one scan. */
const NEEDS_ATTRIBUTE_WORK = /[&"<>\t\n\r\u0000-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
const NEEDS_TEXT_WORK = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;

const escapeAttribute = (value: string) =>
  NEEDS_ATTRIBUTE_WORK.test(value) ? xmlSafe(value).replace(/[&"<>\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char]!) : value;
const escapeText = (text: string) => (NEEDS_TEXT_WORK.test(text) ? xmlSafe(text).replace(/[&<>]/g, (char) => TEXT_ESCAPES[char]!) : text);

interface Writer {
  out: string[];
  /** The next generated prefix's number (ns1, ns2, …), counted over the whole document as the spec does. */
  prefixIndex: number;
}

function writeElement(element: Element, inheritedNamespace: string | null, prefixes: ReadonlyMap<string, string>, writer: Writer): void {
  const { out } = writer;
  const namespace = element.namespaceURI;
  const name = element.localName;
  let ownPrefixes = prefixes;
  out.push('<', name);
  if (namespace !== inheritedNamespace) out.push(' xmlns="', escapeAttribute(namespace ?? ''), '"');
  for (const attribute of element.attributes) {
    const attributeNamespace = attribute.namespaceURI;
    const localName = attribute.localName;
    // A namespace declaration is the serializer's to write: the exporter sets `xmlns` as a plain attribute.
    if (attributeNamespace === XMLNS_NAMESPACE || (attributeNamespace === null && localName === 'xmlns')) continue;
    out.push(' ');
    if (attributeNamespace !== null) {
      let prefix = attributeNamespace === XML_NAMESPACE ? 'xml' : ownPrefixes.get(attributeNamespace);
      if (prefix === undefined) {
        prefix = `ns${writer.prefixIndex++}`;
        ownPrefixes = new Map(ownPrefixes).set(attributeNamespace, prefix);
        out.push('xmlns:', prefix, '="', escapeAttribute(attributeNamespace), '" ');
      }
      out.push(prefix, ':');
    }
    out.push(localName, '="', escapeAttribute(attribute.value), '"');
  }
  if (element.childNodes.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const child of element.childNodes) {
    switch (child.nodeType) {
      case 1 /* element */:
        writeElement(child as Element, namespace, ownPrefixes, writer);
        break;
      case 3 /* text */:
        out.push(escapeText((child as Text).data));
        break;
      case 4 /* CDATA */:
        out.push('<![CDATA[', (child as CDATASection).data, ']]>');
        break;
      case 8 /* comment */:
        out.push('<!--', (child as Comment).data, '-->');
        break;
      default:
        break;
    }
  }
  out.push('</', name, '>');
}

/** The tree under `root` as an XML document's text (no XML declaration), with characters XML forbids replaced by U+FFFD. */
export function serializeSvg(root: Element): string {
  const writer: Writer = { out: [], prefixIndex: 1 };
  writeElement(root, null, new Map(), writer);
  return writer.out.join('');
}
