/**
 * A Mermaid label as the spec's plain label text, bold or italic as a whole.
 *
 * Mermaid's parser hands labels over half-processed: its `#quot;`-style
 * entities kept in placeholders for its renderer, HTML as written (tags its
 * sanitiser allows), and markdown strings (`"`…`"`, and every label of a
 * state diagram or of `@{ label: … }`) unrendered. Here `<br>` becomes a line
 * break (and, in a flowchart's plain label, a written `\n`, as Mermaid draws
 * it; a markdown string and a state diagram show it as written) and entities
 * their characters. A label bold or italic as a whole
 * (`**…**`, `*…*`, `_…_`, `<b>…</b>`, `<i>…</i>`) is a bold or italic label;
 * styling of part of a label is dropped, the text kept, and said so.
 */
import { decodeEntities } from '../html-text.ts';

export interface Label {
  text: string;
  bold: boolean;
  italic: boolean;
  /** What the label lost, as warnings: their messages. */
  lost: string[];
}

const LOST_PART_STYLING = 'bold or italic parts of a label are drawn plain: a label is bold or italic only as a whole';
const LOST_HTML = 'HTML formatting in labels (other than <br>, <b> and <i> around the whole label) is not drawn; its text is kept';

/** Mermaid's entity placeholders (its encodeEntities) back to `&…;` entities. */
const restoreEntities = (text: string) => text.replace(/ﬂ°°/g, '&#').replace(/ﬂ°/g, '&').replace(/¶ß/g, ';');

const FONT_AWESOME = /\bfa[bklrs]?:fa-[a-z0-9-]+\s*/g;

/** `**a**` bold, `*a*` / `_a_` italic, `***a***` both; null: not styled as a whole. */
function wholeMarkdownStyle(line: string): { bold: boolean; italic: boolean; inner: string } | null {
  const match = /^(\*{1,3}|_{1,3})(\S(?:[\s\S]*?\S)?)\1$/.exec(line);
  // A marker left inside (snake_case aside): styled in part.
  if (!match || /[*_]\S|\S[*_]/.test(match[2]!.replace(/\w_\w/g, 'xx'))) return null;
  const marks = match[1]!.length;
  return { bold: marks >= 2, italic: marks !== 2, inner: match[2]! };
}

/** The text with every markdown emphasis marker removed; `stripped` says some were. */
function stripMarkdown(text: string): { text: string; stripped: boolean } {
  const plain = text
    .replace(/(\*{1,3})(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/(^|[^\w])(_{1,3})(\S(?:.*?\S)?)\2(?=[^\w]|$)/g, '$1$3');
  return { text: plain, stripped: plain !== text };
}

function readMarkdown(text: string, lost: Set<string>): { text: string; bold: boolean; italic: boolean } {
  const lines = text.split('\n').map((line) => line.trim());
  const styled = lines.filter((line) => line !== '').map(wholeMarkdownStyle);
  const first = styled[0];
  if (first && styled.every((style) => style !== null && style.bold === first.bold && style.italic === first.italic)) {
    return { text: lines.map((line) => wholeMarkdownStyle(line)?.inner ?? line).join('\n'), bold: first.bold, italic: first.italic };
  }
  const plain = stripMarkdown(text);
  if (plain.stripped) lost.add(LOST_PART_STYLING);
  return { text: plain.text, bold: false, italic: false };
}

/** `<b>…</b>`, `<strong>`, `<i>`, `<em>` around the whole text (nested either way); the text inside. */
function readHtmlStyle(text: string): { text: string; bold: boolean; italic: boolean } {
  let inner = text.trim();
  let bold = false;
  let italic = false;
  for (;;) {
    const match = /^<(b|strong|i|em)>([\s\S]*)<\/\1>$/i.exec(inner);
    // `<b>a</b> and <b>c</b>` is not bold as a whole.
    if (!match || new RegExp(`</${match[1]}>`, 'i').test(match[2]!)) break;
    if (/^(b|strong)$/i.test(match[1]!)) bold = true;
    else italic = true;
    inner = match[2]!.trim();
  }
  return { text: inner, bold, italic };
}

/** A label from Mermaid's model (`labelType` text, string or markdown) as the spec's label. */
export function readLabel(raw: string | undefined, labelType: string | undefined): Label {
  const lost = new Set<string>();
  let text = restoreEntities(raw ?? '').replace(FONT_AWESOME, '');
  let bold = false;
  let italic = false;
  if (labelType === 'markdown') ({ text, bold, italic } = readMarkdown(text, lost));
  // A flowchart's plain label (quoted or not) breaks its line at a written `\n`, as Mermaid draws it; a markdown string keeps it.
  else if (labelType === 'text' || labelType === 'string') text = text.replace(/\\n/g, '\n');
  text = text.replace(/<br\s*\/?>/gi, '\n');
  const html = readHtmlStyle(text);
  if (html.bold || html.italic) ({ text } = html);
  bold ||= html.bold;
  italic ||= html.italic;
  const untagged = text.replace(/<\/?[a-z][^>]*>/gi, '');
  if (untagged !== text) lost.add(LOST_HTML);
  text = decodeEntities(untagged, { mermaid: true })
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
  return { text, bold, italic, lost: [...lost] };
}
