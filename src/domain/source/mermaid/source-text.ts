/**
 * A Mermaid source as the importer reads it: its lines, for the line numbers
 * of warnings and errors, and the text handed to Mermaid's parser.
 *
 * Before parsing, Mermaid drops the front matter, directives (`%%{…}%%`) and
 * comment lines, then the blank lines at the top, so its parsers count lines
 * in a shorter text than the author's. Here those parts are blanked instead
 * (each line kept, empty), so the parser's line N is the source's line N plus
 * the blank lines at the top, and line searches never match inside a comment.
 */

// Mermaid's own patterns (its frontmatter.ts and regexes.ts), so exactly what it drops is blanked.
const FRONT_MATTER = /^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+/s;
const DIRECTIVES = /%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?/gi;
const COMMENT_LINES = /^\s*%%(?!{)[^\n]+\n?/gm;

const blank = (part: string) => part.replace(/[^\n]/g, '');
/** `text` matched literally in a regular expression. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class SourceText {
  /** The source's lines as written. */
  readonly lines: string[];
  /** The same lines with the front matter, directives and comments emptied. */
  readonly code: string[];
  /** The text Mermaid's parser is given. */
  readonly parserText: string;
  /** The front matter block, if any: its lines (1-based numbers) as written. */
  readonly frontMatter: Array<{ line: number; text: string }>;
  /** Lines Mermaid drops from the top of `parserText` (blank ones), and the indent it drops from the first line left. */
  private readonly droppedLines: number;
  private readonly droppedIndent: number;

  constructor(text: string) {
    const unified = text.replace(/\r\n?/g, '\n');
    this.lines = unified.split('\n');
    const frontMatter = FRONT_MATTER.exec(unified)?.[0] ?? '';
    const frontMatterLines = frontMatter.split('\n').length - 1;
    this.frontMatter = this.lines.slice(0, frontMatterLines).map((line, i) => ({ line: i + 1, text: line }));
    this.parserText = (blank(frontMatter) + unified.slice(frontMatter.length)).replace(DIRECTIVES, blank).replace(COMMENT_LINES, blank);
    this.code = this.parserText.split('\n');
    const leading = /^\s*/.exec(this.parserText)![0];
    this.droppedLines = leading.split('\n').length - 1;
    this.droppedIndent = leading.length - leading.lastIndexOf('\n') - 1;
  }

  /** The source position (1-based line and column) of a position in the text Mermaid parsed (1-based line, 0-based column). */
  sourcePosition(parsedLine: number, parsedColumn: number): { line: number; column: number } {
    const line = Math.min(parsedLine + this.droppedLines, this.lines.length);
    return { line, column: parsedColumn + (parsedLine === 1 ? this.droppedIndent : 0) + 1 };
  }

  /** The first line (1-based) whose code matches `pattern`, or null. */
  find(pattern: RegExp): number | null {
    const index = this.code.findIndex((line) => pattern.test(line));
    return index === -1 ? null : index + 1;
  }

  /** The first line holding `id` as a whole name, or the diagram's first line. */
  lineOf(id: string): number {
    return this.find(new RegExp(`(^|[^\\w-])${escapeRegExp(id)}($|[^\\w-])`)) ?? this.headerLine();
  }

  /** The line where a node is given its shape or text (`id[…]`, `id(…)`, `id@{…}`), else the first naming it. */
  definitionOf(id: string): number {
    return this.find(new RegExp(`(^|[^\\w-])${escapeRegExp(id)}\\s*(\\[|\\(|\\{|>|@\\{)`)) ?? this.lineOf(id);
  }

  /** The line of the diagram's header (`flowchart LR`, `stateDiagram-v2`). */
  headerLine(): number {
    const index = this.code.findIndex((line) => line.trim() !== '');
    return index === -1 ? 1 : index + 1;
  }

  /** The title of the front matter (`title: …`), if any. */
  title(): string | null {
    const title = this.frontMatter.map(({ text }) => /^title:\s*(.+)$/.exec(text)?.[1]).find((value) => value !== undefined);
    return title ? title.trim().replace(/^(["'])(.*)\1$/, '$2') || null : null;
  }
}

/** Warnings, one per kind of thing (its key), at the first line where it occurs; listed by line. */
export class Warnings {
  private readonly byKey = new Map<string, { line: number; message: string }>();

  add(key: string, line: number, message: string): void {
    const known = this.byKey.get(key);
    if (!known || line < known.line) this.byKey.set(key, { line, message });
  }

  list(): Array<{ line: number; message: string }> {
    return [...this.byKey.values()].sort((a, b) => a.line - b.line);
  }
}
