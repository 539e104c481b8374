/**
 * DOT text rewritten into the forms @ts-graphviz/ast's parser reads, for DOT
 * that Graphviz takes and that parser does not: strings joined with `+`,
 * attribute lists one after another (`[a=1] [b=2]`), line breaks around `=`
 * or before `,`, comma-separated nodes at an edge's end (`a, b -> c`), and
 * an edge end with both a port and a compass point (`a:p:ne`).
 * The graph is the same, comments blanked out; every line keeps its number
 * (a line break moved out of the way goes just after the value it stood
 * before).
 */

type Kind = 'space' | 'string' | 'html' | 'id' | 'edgeop' | 'punct';

interface Token {
  kind: Kind;
  text: string;
}

const ID = /[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|-?(?:\.\d+|\d+(?:\.\d*)?)/y;

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let at = 0;
  const take = (kind: Kind, end: number) => {
    out.push({ kind, text: text.slice(at, end) });
    at = end;
  };
  while (at < text.length) {
    const c = text[at]!;
    if (/\s/.test(c)) {
      let end = at;
      while (end < text.length && /\s/.test(text[end]!)) end++;
      const last = out[out.length - 1];
      if (last?.kind === 'space') {
        last.text += text.slice(at, end);
        at = end;
      } else take('space', end);
    } else if (text.startsWith('//', at) || c === '#' || text.startsWith('/*', at)) {
      // A comment says nothing to the importer: it is blanked out, keeping every line and column.
      const close = text.startsWith('/*', at) ? text.indexOf('*/', at + 2) : -1;
      const lineEnd = text.indexOf('\n', at);
      const end = text.startsWith('/*', at) ? (close === -1 ? text.length : close + 2) : lineEnd === -1 ? text.length : lineEnd;
      const blank = text.slice(at, end).replace(/[^\n]/g, ' ');
      const last = out[out.length - 1];
      if (last?.kind === 'space') last.text += blank;
      else out.push({ kind: 'space', text: blank });
      at = end;
    } else if (c === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      take('string', Math.min(text.length, end + 1));
    } else if (c === '<') {
      let depth = 0;
      let end = at;
      do {
        if (text[end] === '<') depth++;
        else if (text[end] === '>') depth--;
        end++;
      } while (end < text.length && depth > 0);
      take('html', end);
    } else if (text.startsWith('->', at) || text.startsWith('--', at)) {
      take('edgeop', at + 2);
    } else {
      ID.lastIndex = at;
      const id = ID.exec(text);
      take(id ? 'id' : 'punct', id ? ID.lastIndex : at + 1);
    }
  }
  return out;
}

const isGap = (token: Token | undefined) => token?.kind === 'space';
const newlines = (text: string) => text.replace(/[^\n]/g, '');

/** The index of the next token that is not a space, from `at` on. */
function next(list: Token[], at: number): number {
  while (at < list.length && isGap(list[at])) at++;
  return at;
}

/** `"a" + "b"` as one string; the line breaks between the parts become line continuations inside it. */
function joinStrings(list: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    const plus = next(list, i + 1);
    const second = next(list, plus + 1);
    if (token.kind === 'string' && list[plus]?.text === '+' && list[second]?.kind === 'string') {
      const between = list.slice(i + 1, second).map((t) => t.text).join('');
      list[second] = { kind: 'string', text: token.text.slice(0, -1) + newlines(between).replace(/\n/g, '\\\n') + list[second]!.text.slice(1) };
      i = second - 1;
      continue;
    }
    out.push(token);
  }
  return out;
}

/** `[a=1] [b=2]` as `[a=1 b=2]`. */
function mergeAttributeLists(list: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    const open = next(list, i + 1);
    if (token.text === ']' && list[open]?.text === '[') {
      out.push(...list.slice(i + 1, open), { kind: 'space', text: ' ' });
      i = open;
      continue;
    }
    out.push(token);
  }
  return out;
}

/** Line breaks next to `=` or before `,` moved to just after the value that follows, where the parser takes them. */
function moveLineBreaks(list: Token[]): Token[] {
  const out: Token[] = [];
  let held = '';
  const stuck = (before: Token | undefined, after: Token | undefined) => before?.text === '=' || after?.text === '=' || after?.text === ',';
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    const before = out[out.length - 1];
    if (token.kind === 'space' && token.text.includes('\n') && stuck(before, list[i + 1])) {
      held += newlines(token.text);
      out.push({ kind: 'space', text: ' ' });
      continue;
    }
    out.push(token);
    if (held !== '' && token.kind !== 'space' && !stuck(token, list[next(list, i + 1)])) {
      out.push({ kind: 'space', text: held });
      held = '';
    }
  }
  if (held !== '') out.push({ kind: 'space', text: held });
  return out;
}

/** `a, b -> c` (nodes separated by commas at an edge's end) as `{a b} -> c`. */
function groupNodeLists(list: Token[]): Token[] {
  const isName = (token: Token | undefined) => token !== undefined && (token.kind === 'id' || token.kind === 'string' || token.kind === 'html');
  /** The index just past a node reference (`a`, `a:p`, `a:p:n`) starting at `at`, or -1. */
  const nodeEnd = (at: number) => {
    if (!isName(list[at])) return -1;
    let end = at + 1;
    for (let port = 0; port < 2 && list[next(list, end)]?.text === ':' && isName(list[next(list, next(list, end) + 1)]); port++) end = next(list, next(list, end) + 1) + 1;
    return end;
  };
  const out: Token[] = [];
  let depth = 0;
  let before: Token | undefined;
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (token.text === '[') depth++;
    if (token.text === ']') depth--;
    if (i > 0 && !isGap(list[i - 1])) before = list[i - 1];
    let end = depth === 0 ? nodeEnd(i) : -1;
    let commas = 0;
    while (end !== -1 && list[next(list, end)]?.text === ',') {
      const following = nodeEnd(next(list, next(list, end) + 1));
      if (following === -1) break;
      end = following;
      commas++;
    }
    if (commas > 0 && (before?.kind === 'edgeop' || list[next(list, end)]?.kind === 'edgeop')) {
      out.push({ kind: 'punct', text: '{' }, ...list.slice(i, end).map((t) => (t.text === ',' ? { kind: 'space' as const, text: ' ' } : t)), { kind: 'punct', text: '}' });
      i = end - 1;
      continue;
    }
    out.push(token);
  }
  return out;
}

/**
 * `node:port:compass` and `node : port` as `node:port`: the parser reads a
 * two-letter compass point there as one letter and the other as a new node
 * (`lookup:top:ne [label=…]` became a node "e" holding the edge's label),
 * takes no `_`, `c` or quoted compass point at all, and no space round `:`. The importer keeps neither ports nor
 * compass points; the port it still sees is enough for its warning.
 */
function dropCompassPoints(list: Token[]): Token[] {
  const out: Token[] = [];
  const name = (token: Token | undefined) => token?.kind === 'id' || token?.kind === 'string';
  let depth = 0;
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (token.text === '[') depth++;
    if (token.text === ']') depth--;
    out.push(token);
    if (depth > 0 || !name(token)) continue;
    const firstColon = next(list, i + 1);
    const portAt = next(list, firstColon + 1);
    if (list[firstColon]?.text !== ':' || !name(list[portAt])) continue;
    const secondColon = next(list, portAt + 1);
    const compassAt = next(list, secondColon + 1);
    const end = list[secondColon]?.text === ':' && name(list[compassAt]) ? compassAt : portAt;
    if (list.slice(i + 1, end).some((t) => t.text.includes('\n'))) continue;
    // `node : port` closes up (the parser takes no space there); a compass point after the port goes, blanks keeping its columns.
    const dropped = list.slice(i + 1, end + 1).reduce((length, t) => length + t.text.length, 0) - 1 - list[portAt]!.text.length;
    out.push(list[firstColon]!, list[portAt]!, ...(dropped > 0 ? [{ kind: 'space' as const, text: ' '.repeat(dropped) }] : []));
    i = end;
  }
  return out;
}

/** DOT text in forms the parser reads; text that needs none of them comes back as it is. */
export function parserReadyDot(text: string): string {
  return groupNodeLists(moveLineBreaks(mergeAttributeLists(dropCompassPoints(joinStrings(tokens(text))))))
    .map((token) => token.text)
    .join('');
}
