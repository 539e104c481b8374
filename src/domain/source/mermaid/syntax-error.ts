/**
 * What Mermaid throws for a text it cannot read, as a SourceSyntaxError at the
 * source's own line and column (1-based).
 *
 * Flowcharts and state diagrams are parsed by jison parsers. A parse error
 * carries `hash`: `text` and `token`, what was found; `expected`, the tokens
 * the grammar allowed there (Mermaid's own names, quoted); `line`, the
 * 0-based line of what was found; and `loc`, the span of the last token read
 * before it (jison's `yyloc`), from which the found text is searched forward.
 * A lexical error (no token matches) has only `line`, and shows the column in
 * its message, under the text read so far. Checks Mermaid makes after parsing
 * (an unknown `@{ shape: … }`, a `linkStyle` index past the last link) are
 * plain errors: the line is found from what they name.
 */
import { SPEC_LIMITS } from '../../spec/types.ts';
import { SourceSyntaxError } from '../types.ts';
import { MERMAID_MAX_EDGES } from './runtime.ts';
import { escapeRegExp, type SourceText } from './source-text.ts';

interface JisonHash {
  text?: string;
  token?: string | number | null;
  line?: number;
  loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
  expected?: string[];
}

/** Mermaid's encodeEntities, as far as it moves columns: each `#name;` is held in a placeholder 2 characters longer (`#123;`: 3). */
const encodeEntities = (text: string) => text.replace(/#\w+;/g, (entity) => (/^#\+?\d+;$/.test(entity) ? '\uFB02\xB0\xB0' : '\uFB02\xB0') + entity.slice(1, -1) + '\xB6\xDF');

/** A column in a line as Mermaid parsed it (entities in placeholders) back in the line as written. */
function unencodedColumn(line: string, column: number): number {
  let shift = 0;
  for (const match of line.matchAll(/#\w+;/g)) {
    if (match.index + shift >= column) break;
    shift += /^#\+?\d+;$/.test(match[0]) ? 3 : 2;
  }
  return Math.max(0, column - shift);
}

/** The lines of the text Mermaid's parser read: what is left of `parserText` after Mermaid's own preparation. */
const parsedLinesOf = (source: SourceText) => encodeEntities(source.parserText.trimStart()).split('\n');

const describeFound = (hash: JisonHash): string => {
  if (hash.token === 'EOF' || hash.token === 1 || (hash.text === '' && hash.token !== null)) return 'the end of the text';
  if (hash.token === 'NEWLINE' || hash.token === 'NL' || hash.text === '\n') return 'the end of the line';
  return JSON.stringify(hash.text);
};

function parseError(hash: JisonHash & { loc: NonNullable<JisonHash['loc']> }, source: SourceText): SourceSyntaxError {
  const expected = (hash.expected ?? []).map((name) => name.replace(/^'|'$/g, ''));
  const found = describeFound(hash);
  const parsedLines = parsedLinesOf(source);
  let line = (hash.line ?? hash.loc.last_line - 1) + 1;
  let column: number;
  if (found === 'the end of the text') {
    // Point after the last thing written.
    while (line > 1 && (parsedLines[line - 1] ?? '').trim() === '') line--;
    column = (parsedLines[line - 1] ?? '').trimEnd().length;
  } else if (found === 'the end of the line') {
    // The lexer counted the line break it found: it ends the line before.
    line = Math.max(1, line - 1);
    column = (parsedLines[line - 1] ?? '').trimEnd().length;
  } else {
    const text = parsedLines[line - 1] ?? '';
    const from = hash.loc.last_line === line ? hash.loc.last_column : 0;
    const at = hash.text ? text.indexOf(hash.text, from) : -1;
    column = at === -1 ? Math.min(from, text.length) : at;
  }
  const position = source.sourcePosition(line, column);
  const written = source.lines[position.line - 1] ?? '';
  return new SourceSyntaxError(`unexpected ${found}`, position.line, unencodedColumn(written, position.column - 1) + 1, expected);
}

function lexicalError(message: string, hash: JisonHash, source: SourceText): SourceSyntaxError {
  // "Lexical error on line 2. Unrecognized text.\n<up to 20 characters read><what follows>\n-----^"
  const [, shown = '', pointer = ''] = message.split('\n');
  const read = shown.slice(0, pointer.indexOf('^')).replace(/^\.\.\./, '');
  const parsedLine = (hash.line ?? 0) + 1;
  const text = parsedLinesOf(source)[parsedLine - 1] ?? '';
  // The longest start of the line that the text read so far ends with.
  let column = 0;
  for (let length = Math.min(text.length, read.length); length > 0; length--) {
    if (read.endsWith(text.slice(0, length))) {
      column = length;
      break;
    }
  }
  const rest = text.slice(column);
  column += rest.length - rest.trimStart().length;
  const position = source.sourcePosition(parsedLine, column);
  const written = source.lines[position.line - 1] ?? '';
  const at = unencodedColumn(written, position.column - 1);
  const found = written.slice(at).split(/\s/)[0] ?? '';
  return new SourceSyntaxError(found ? `unrecognised text ${JSON.stringify(found)}` : 'unrecognised text', position.line, at + 1);
}

/** The largest link index a `linkStyle` names. */
function highestLinkStyleIndex(source: SourceText): string | undefined {
  const indices = source.code.flatMap((line) => /^\s*linkStyle\s+([\d,\s]+)/.exec(line)?.[1]!.split(/[,\s]+/).filter(Boolean).map(Number) ?? []);
  return indices.length > 0 ? String(Math.max(...indices)) : undefined;
}

/** A check Mermaid makes once the text has parsed, at the line of what it names. */
function checkError(message: string, source: SourceText): SourceSyntaxError {
  const first = message.split('\n')[0]!;
  if (/^Edge limit exceeded/.test(first)) {
    return new SourceSyntaxError(`the flowchart has more than ${MERMAID_MAX_EDGES} links, more than Mermaid is asked to read; a diagram holds at most ${SPEC_LIMITS.edges}`, source.headerLine(), 1);
  }
  const shape = /^No such shape: ([^.\s]+)\./.exec(first)?.[1];
  if (shape !== undefined) {
    const line = source.find(new RegExp(`shape\\s*:\\s*["']?${escapeRegExp(shape)}\\b`)) ?? source.headerLine();
    const hint = /[A-Z_]/.test(shape) ? ' (shape names are lower-case, with - not _)' : '';
    return new SourceSyntaxError(`Mermaid has no shape named "${shape}"${hint}`, line, Math.max(1, (source.lines[line - 1] ?? '').indexOf(shape) + 1));
  }
  // Mermaid checks a linkStyle index only when it is a number; as written it is text, and the lookup fails.
  const linkIndex = /^The index (\d+) for linkStyle/.exec(first)?.[1] ?? (/setting '(style|interpolate)'/.test(first) ? highestLinkStyleIndex(source) : undefined);
  if (linkIndex !== undefined) {
    const line = source.find(new RegExp(`^\\s*linkStyle\\b[^\\n]*\\b${linkIndex}\\b`)) ?? source.headerLine();
    return new SourceSyntaxError(`linkStyle ${linkIndex} names a link the diagram does not have: links are numbered from 0 in the order they are written`, line, Math.max(1, (source.lines[line - 1] ?? '').search(/\d/) + 1));
  }
  // Others name what they are about: `… for node [x]`, `State not found: x`.
  const named = /\[([^\]]+)\]|"([^"]+)"|: (\S+)$/.exec(first);
  const subject = named?.[1] ?? named?.[2] ?? named?.[3];
  return new SourceSyntaxError(first, subject === undefined ? source.headerLine() : source.lineOf(subject), 1);
}

/** What Mermaid threw while reading `source`, as a SourceSyntaxError. */
export function mermaidSyntaxError(error: unknown, source: SourceText): SourceSyntaxError {
  const message = error instanceof Error ? error.message : String(error);
  const hash = (error as { hash?: JisonHash }).hash;
  if (hash?.loc) return parseError(hash as JisonHash & { loc: NonNullable<JisonHash['loc']> }, source);
  if (hash && /^Lexical error/.test(message)) return lexicalError(message, hash, source);
  return checkError(message, source);
}
