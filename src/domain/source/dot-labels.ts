/**
 * Graphviz labels as the plain text a spec label holds: escString escapes
 * (`\n \l \r \N \G …`), record labels (`{a|<p> b|c}`) and HTML-like labels
 * (`<<b>a</b><br/>b>`), each with what of its look the text keeps.
 */
import { decodeEntities } from './html-text.ts';

/** The names an escString's `\N \G \T \H \E` stand for. */
export interface LabelNames {
  node?: string;
  graph: string;
  tail?: string;
  head?: string;
}

/**
 * An escString as plain text. `\n`, `\l` and `\r` end a line (centred, left-
 * or right-justified in Graphviz; the spec centres every line); `\N` `\G` `\T`
 * `\H` `\E` are names; a backslash before a line end continues the line; any
 * other escaped character is itself. A final line end draws no empty line.
 */
export function escString(value: string, names: LabelNames): string {
  return value
    .replace(/\\(\r?\n|[\s\S])/g, (_, code: string) => {
      switch (code) {
        case 'n':
        case 'l':
        case 'r':
          return '\n';
        case 'N':
          return names.node ?? '';
        case 'G':
          return names.graph;
        case 'T':
          return names.tail ?? '';
        case 'H':
          return names.head ?? '';
        case 'E':
          return names.tail !== undefined && names.head !== undefined ? `${names.tail}->${names.head}` : '';
        case 'L':
          return '';
        default:
          return code.startsWith('\n') || code.startsWith('\r') ? '' : code;
      }
    })
    .replace(/\n$/, '');
}

type RecordField = string | RecordField[];

/** A record label's fields: `{` `}` nest a list (turned across its parent), `|` separates, `<port>` is dropped, `\{ \| \< \> \ ` are literal. */
function recordFields(label: string): { fields: RecordField[]; ports: boolean } {
  let ports = false;
  let at = 0;
  const list = (): RecordField[] => {
    const fields: RecordField[] = [];
    let text = '';
    let nested: RecordField[] | null = null;
    const close = () => {
      fields.push(nested ?? text);
      text = '';
      nested = null;
    };
    while (at < label.length) {
      const c = label[at]!;
      if (c === '\\' && at + 1 < label.length && '{}|<> '.includes(label[at + 1]!)) {
        text += label[at + 1] === ' ' ? ' ' : label[at + 1];
        at += 2;
      } else if (c === '{') {
        at++;
        nested = list();
      } else if (c === '}') {
        at++;
        close();
        return fields;
      } else if (c === '|') {
        at++;
        close();
      } else if (c === '<') {
        const end = label.indexOf('>', at);
        at = end === -1 ? label.length : end + 1;
        ports = true;
      } else {
        text += c;
        at++;
      }
    }
    close();
    return fields;
  };
  return { fields: list(), ports };
}

/**
 * A record label as lines. Fields side by side (the top level in a top-down
 * graph, every other brace level below it) are one line joined by " | " when
 * each is one line; fields stacked are a line each; empty fields are left out.
 */
export function recordText(label: string, horizontal: boolean, names: LabelNames): { text: string; fields: number; ports: boolean } {
  const { fields, ports } = recordFields(label);
  let count = 0;
  const lines = (field: RecordField, across: boolean): string[] => {
    if (typeof field === 'string') {
      const text = escString(field.trim(), names).trim();
      if (text !== '') count++;
      return text === '' ? [] : text.split('\n');
    }
    const parts = field.map((child) => lines(child, !across)).filter((part) => part.length > 0);
    if (across && parts.every((part) => part.length === 1)) return parts.length === 0 ? [] : [parts.map((part) => part[0]).join(' | ')];
    return parts.flat();
  };
  return { text: lines(fields, horizontal).join('\n'), fields: count, ports };
}

/** An HTML-like label as text, with the look the whole label shares (bold, italic, colour) and whether anything else was left out. */
export interface HtmlText {
  text: string;
  bold: boolean;
  italic: boolean;
  /** The `<font color>` every character is in, if one is. */
  color: string | null;
  /** Whether the outermost table draws a border or cell borders (a box around the label). */
  boxed: boolean;
  /** The outermost table's background colour, if it has one. */
  fill: string | null;
  /** Tables, images, partial formatting, font sizes: what flattening to text lost. */
  flattened: boolean;
  image: boolean;
}

interface Frame {
  kind: 'root' | 'table' | 'row' | 'cell';
  lines: string[];
  line: string;
  cells: string[][];
}

const frame = (kind: Frame['kind']): Frame => ({ kind, lines: [], line: '', cells: [] });

/**
 * An HTML-like label flattened: `<br/>` ends a line, a table row is a line
 * (its non-empty cells joined by " | ", or a line each when a cell holds
 * several), entities are decoded and other markup is dropped.
 */
export function htmlText(html: string): HtmlText {
  const stack: Frame[] = [frame('root')];
  const top = () => stack[stack.length - 1]!;
  const flush = (f: Frame) => {
    if (f.line.trim() !== '' || f.kind === 'root' || f.kind === 'cell') f.lines.push(f.line.replace(/\s+/g, ' ').trim());
    f.line = '';
  };
  const pop = (kind: Frame['kind']) => {
    const at = stack.map((f) => f.kind).lastIndexOf(kind);
    if (at <= 0) return;
    while (stack.length > at + 1) close(stack.pop()!);
    close(stack.pop()!);
  };
  const close = (f: Frame) => {
    const parent = top();
    if (f.kind === 'cell') {
      flush(f);
      const lines = f.lines.filter((line) => line !== '');
      if (parent.kind === 'row') parent.cells.push(lines);
      else parent.lines.push(...lines);
    } else if (f.kind === 'row') {
      const cells = f.cells.filter((cell) => cell.length > 0);
      const lines = cells.every((cell) => cell.length === 1) ? (cells.length > 0 ? [cells.map((cell) => cell[0]).join(' | ')] : []) : cells.flat();
      parent.lines.push(...lines);
    } else if (f.kind === 'table') {
      if (parent.line.trim() !== '') flush(parent);
      parent.lines.push(...f.lines);
    }
  };
  let bold = 0;
  let italic = 0;
  const fonts: Array<{ color: string | null; bold: boolean }> = [];
  const fontColor = () => [...fonts].reverse().find((font) => font.color !== null)?.color ?? null;
  const looks: Array<{ bold: boolean; italic: boolean; color: string | null }> = [];
  let flattened = false;
  let image = false;
  let boxed: boolean | null = null;
  let fill: string | null = null;
  for (const token of html.split(/(<[^>]*>)/)) {
    if (!token.startsWith('<')) {
      const text = decodeEntities(token.replace(/\s+/g, ' '));
      if (text.trim() !== '') looks.push({ bold: bold > 0 || fonts.some((font) => font.bold), italic: italic > 0, color: fontColor() });
      if (top().kind === 'table' || top().kind === 'row') continue;
      top().line += text;
      continue;
    }
    const tag = /^<\s*(\/?)\s*([a-zA-Z]+)([^>]*?)(\/?)\s*>$/.exec(token);
    if (!tag) continue;
    const [, closing, rawName, attributes, selfClosing] = tag;
    const name = rawName!.toLowerCase();
    const attribute = (key: string) => {
      const match = new RegExp(`\\b${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attributes!);
      return match ? (match[1] ?? match[2]) : undefined;
    };
    switch (name) {
      case 'br':
        flush(top());
        break;
      case 'b':
        bold += closing ? -1 : 1;
        break;
      case 'i':
        italic += closing ? -1 : 1;
        break;
      case 'font':
        if (closing) fonts.pop();
        else {
          fonts.push({ color: attribute('color') ?? null, bold: /bold/i.test(attribute('face') ?? '') });
          if (attribute('point-size') !== undefined || attribute('face') !== undefined) flattened = true;
        }
        break;
      case 'table':
        flattened = true;
        if (closing) pop('table');
        else {
          if (boxed === null) {
            const cells = attribute('cellborder');
            boxed = (attribute('border') ?? '1') !== '0' || (cells !== undefined && cells !== '0');
            fill = attribute('bgcolor') ?? null;
          }
          stack.push(frame('table'));
        }
        break;
      case 'tr':
        if (closing) pop('row');
        else stack.push(frame('row'));
        break;
      case 'td':
      case 'th':
        if (closing) pop('cell');
        else if (!selfClosing) stack.push(frame('cell'));
        break;
      case 'img':
        flattened = image = true;
        break;
      default:
        flattened = true;
    }
  }
  while (stack.length > 1) close(stack.pop()!);
  flush(stack[0]!);
  const lines = stack[0]!.lines;
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const all = (key: 'bold' | 'italic') => looks.length > 0 && looks.every((look) => look[key]);
  const color = looks.length > 0 && looks.every((look) => look.color !== null && look.color === looks[0]!.color) ? looks[0]!.color : null;
  const partial = (looks.some((look) => look.bold) && !all('bold')) || (looks.some((look) => look.italic) && !all('italic')) || (looks.some((look) => look.color !== null) && color === null);
  return { text: lines.join('\n'), bold: all('bold'), italic: all('italic'), color, boxed: boxed ?? false, fill, flattened: flattened || partial, image };
}
