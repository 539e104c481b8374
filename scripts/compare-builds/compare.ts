// How scripts/compare-builds.ts compares two builds' exchanges (the lines scenario.ts writes): matched by
// step, with what no two builds can share masked, each difference said by JSON path or by line.
/**
 * What two builds never share, whatever they do: the `date` header (Node's HTTP code writes it from its own
 * clock); the signing key OpenSSL makes itself (served at /oauth/jwks); the signatures of the OAuth flow's
 * cookies (made with a secret each build draws at start-up, in its own order); and the asset build id in
 * /assets/<id>/ links (a hash of the built web client's files, so it changes whenever any of them does).
 */
const ASSET_LINK = /\/assets\/[0-9a-f]{16}\//g;

/** One request and its answer, as scenario.ts writes it (a line of JSON each, with its index). */
export interface Exchange {
  step: string;
  request: { method: string; url: string; as: string; body?: unknown };
  status: number;
  headers: Record<string, any>;
  body: any;
}

function masked(exchange: Exchange): Exchange {
  const copy = structuredClone(exchange);
  delete copy.headers.date;
  if (copy.request.url === '/oauth/jwks' && Array.isArray(copy.body?.json?.keys)) {
    for (const key of copy.body.json.keys) for (const field of ['n', 'e', 'kid', 'x', 'y']) if (field in key) key[field] = '(a key)';
  }
  const cookies = copy.headers['set-cookie'];
  if (cookies) copy.headers['set-cookie'] = [cookies].flat().map((cookie: string) => cookie.replace(/^([^=;]*\.sig)=[^;]*/, '$1=(a signature)'));
  if (typeof copy.body?.text === 'string') copy.body.text = copy.body.text.replace(ASSET_LINK, '/assets/(build)/');
  return copy;
}

const keyOf = (exchange: Exchange, seen: Map<string, number>) => {
  const count = (seen.get(exchange.step) ?? 0) + 1;
  seen.set(exchange.step, count);
  return count === 1 ? exchange.step : `${exchange.step} #${count}`;
};

function readExchanges(text: string): Map<string, Exchange> {
  const seen = new Map<string, number>();
  const byKey = new Map<string, Exchange>();
  for (const line of text.split('\n')) if (line) {
    const exchange = masked(JSON.parse(line));
    byKey.set(keyOf(exchange, seen), exchange);
  }
  return byKey;
}

const show = (value: unknown) => {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

/** Where two JSON values differ, as `path: old → new`, the first `limit` places. */
function jsonDifferences(a: any, b: any, at = '', out: string[] = [], limit = 6): string[] {
  if (out.length >= limit) return out;
  if (a === b) return out;
  const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    out.push(`${at || '(whole)'}: ${show(a)} → ${show(b)}`);
    return out;
  }
  const keys = Array.isArray(a) ? Array.from({ length: Math.max(a.length, b.length) }, (_, i) => String(i)) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) jsonDifferences(a[key], b[key], `${at}${Array.isArray(a) ? `[${key}]` : `.${key}`}`, out, limit);
  return out;
}

function textDifference(a: string, b: string): string[] {
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  const line = linesA.findIndex((l, i) => l !== linesB[i]);
  const at = line === -1 ? linesA.length : line;
  return [`line ${at + 1} of ${linesA.length} → ${linesB.length}: ${show(linesA[at])} → ${show(linesB[at])}`];
}

function differencesOf(a: Exchange, b: Exchange): string[] {
  const found: string[] = [];
  if (a.request.url !== b.request.url || a.request.method !== b.request.method) found.push(`request: ${a.request.method} ${a.request.url} → ${b.request.method} ${b.request.url}`);
  if (a.status !== b.status) found.push(`status: ${a.status} → ${b.status}`);
  for (const line of jsonDifferences(a.headers, b.headers, 'headers')) found.push(line);
  if (JSON.stringify(a.body) !== JSON.stringify(b.body)) {
    if (typeof a.body?.text === 'string' && typeof b.body?.text === 'string') found.push(...textDifference(a.body.text, b.body.text).map((l) => `body ${l}`));
    else found.push(...jsonDifferences(a.body, b.body, 'body'));
  }
  return found;
}

/**
 * Two builds' exchanges (their JSON-lines text) side by side, matched by step: how many agree, and a Markdown
 * list item for each that does not (or that only one build has), with its first differences.
 */
export function compareExchanges(oldText: string, newText: string): { same: number; lines: string[] } {
  const before = readExchanges(oldText);
  const after = readExchanges(newText);
  let same = 0;
  const lines: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (!a || !b) {
      lines.push(`- ${key}: only in ${a ? 'old' : 'new'}`);
      continue;
    }
    const found = differencesOf(a, b);
    if (found.length === 0) same++;
    else lines.push(`- ${key} (${a.request.method} ${a.request.url}):\n${found.map((f) => `    ${f}`).join('\n')}`);
  }
  return { same, lines };
}
