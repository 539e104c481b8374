import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { buildIconCatalog, renderCatalogJson, sanitizeLucideSvg } from '../../scripts/build-icon-catalog.ts';
import { CATALOG_FILE, findIcon, ICON_CATEGORIES, iconDataUrl, isCatalogIcon, listIcons } from '../../src/domain/icons/catalog.ts';

// jsdom ships no type declarations; only its DOMParser is used, typed by the DOM lib.
const { JSDOM } = (await import('jsdom' as string)) as { JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } } };
const xmlParser = new new JSDOM('').window.DOMParser();

const SVG_NS = 'http://www.w3.org/2000/svg';
const SAFE_ELEMENTS = new Set(['svg', 'g', 'path', 'circle', 'rect', 'line', 'polyline', 'polygon', 'ellipse']);
const REQUIRED_GENERIC = ['user', 'server', 'database', 'cloud', 'lock', 'globe', 'phone', 'laptop', 'queue', 'cache', 'load-balancer'];

/** Parses an SVG as XML, as a browser would, and returns every problem that could make it unsafe or broken. */
function svgProblems(svg: string): string[] {
  const document = xmlParser.parseFromString(svg, 'image/svg+xml');
  const root = document.documentElement;
  if (root.getElementsByTagName('parsererror').length > 0 || root.localName !== 'svg') return ['not well-formed SVG'];
  const problems: string[] = [];
  if (root.namespaceURI !== SVG_NS) problems.push('root is not in the SVG namespace');
  for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
    if (!SAFE_ELEMENTS.has(element.localName)) problems.push(`<${element.localName}>`);
    for (const attribute of Array.from(element.attributes)) {
      if (/^on/i.test(attribute.name) || /href$/i.test(attribute.name)) problems.push(`attribute ${attribute.name}`);
      if (/url\s*\(|javascript:|currentColor/i.test(attribute.value)) problems.push(`${attribute.name}="${attribute.value}"`);
    }
  }
  if (/<script|<!--|<!\[CDATA|<\?/i.test(svg)) problems.push('script, comment or processing instruction');
  return problems;
}

test('the committed catalog.json is exactly what the build script makes from the installed packages', () => {
  const built = renderCatalogJson(buildIconCatalog());
  assert.equal(built, renderCatalogJson(buildIconCatalog()), 'two builds give the same bytes');
  assert.ok(built === fs.readFileSync(CATALOG_FILE, 'utf8'), 'catalog.json is stale: run node --import tsx scripts/build-icon-catalog.ts');
});

describe('the catalog', () => {
  const icons = listIcons();

  test('holds at least 300 icons with unique icon-<name> ids, ordered by id', () => {
    assert.ok(icons.length >= 300, `${icons.length} icons`);
    const ids = icons.map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^icon-[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.deepEqual(ids, [...ids].sort());
  });

  test('has the generic symbols diagrams need under their plain names', () => {
    for (const name of REQUIRED_GENERIC) assert.ok(isCatalogIcon(`icon-${name}`), `icon-${name}`);
    assert.equal(findIcon('icon-database')!.source, 'lucide');
    assert.equal(findIcon('icon-postgresql')!.source, 'simple-icons');
  });

  test('every category is used and every icon is in a known category', () => {
    for (const category of ICON_CATEGORIES) assert.ok(icons.some((i) => i.category === category), category);
    for (const icon of icons) assert.ok((ICON_CATEGORIES as readonly string[]).includes(icon.category), icon.id);
  });

  test('every icon is a 64x64 standalone SVG with a label, a source and a shippable licence', () => {
    for (const icon of icons) {
      assert.ok(icon.label.trim().length > 0, icon.id);
      assert.equal(icon.mimeType, 'image/svg+xml');
      assert.ok(Number.isInteger(icon.width) && Number.isInteger(icon.height) && icon.width > 0 && icon.height > 0, icon.id);
      assert.ok(icon.svg.startsWith(`<svg xmlns="${SVG_NS}" width="${icon.width}" height="${icon.height}" viewBox="0 0 24 24"`), icon.id);
      if (icon.source === 'lucide') assert.match(icon.license, /^ISC( AND MIT)?$/, icon.id);
      else assert.ok(!/NC|ND|GPL|custom/.test(icon.license), `${icon.id}: ${icon.license}`);
      assert.match(icon.origin, /^https:\/\//, icon.id);
    }
  });

  test('every SVG parses as XML and holds only plain geometry: no script, handler, link or external reference', () => {
    for (const icon of icons) assert.deepEqual(svgProblems(icon.svg), [], icon.id);
  });

  test('brand icons are filled in their colour, symbols are stroked in a dark ink', () => {
    assert.match(findIcon('icon-postgresql')!.svg, /<path fill="#4169E1" d="M/);
    assert.match(findIcon('icon-server')!.svg, /stroke="#1e1e1e"/);
  });
});

describe('listIcons', () => {
  test('without a filter returns the whole catalog; a blank q filters nothing', () => {
    assert.equal(listIcons({ q: '   ' }).length, listIcons().length);
  });

  test('q matches the id, the label or the category, ignoring case', () => {
    assert.ok(listIcons({ q: 'PostGres' }).some((i) => i.id === 'icon-postgresql'));
    assert.ok(listIcons({ q: 'apache kafka' }).some((i) => i.id === 'icon-kafka'), 'by label');
    const byCategory = listIcons({ q: 'OBSERVABILITY' });
    assert.ok(byCategory.length > 0);
    assert.deepEqual(
      byCategory.filter((i) => i.category === 'observability').map((i) => i.id),
      listIcons({ category: 'observability' }).map((i) => i.id),
    );
    for (const icon of listIcons({ q: 'sql' })) assert.ok(`${icon.id} ${icon.label} ${icon.category}`.toLowerCase().includes('sql'), icon.id);
    assert.deepEqual(listIcons({ q: 'no-such-icon-anywhere' }), []);
  });

  test('category keeps only that category, and combines with q', () => {
    const databases = listIcons({ category: 'database' });
    assert.ok(databases.every((i) => i.category === 'database'));
    assert.ok(databases.some((i) => i.id === 'icon-database') && databases.some((i) => i.id === 'icon-redis'));
    assert.deepEqual(
      listIcons({ category: 'database', q: 'mongo' }).map((i) => i.id),
      ['icon-mongodb'],
    );
  });
});

describe('lookups', () => {
  test('findIcon and isCatalogIcon resolve catalog ids only, never inherited object keys', () => {
    assert.equal(findIcon('icon-user')!.label, 'User');
    for (const id of ['icon-nope', 'user', 'ICON-USER', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      assert.equal(findIcon(id), undefined, id);
      assert.equal(isCatalogIcon(id), false, id);
    }
  });

  test('iconDataUrl is a base64 data URL of the SVG, and undefined for an unknown id', () => {
    const url = iconDataUrl('icon-database')!;
    const prefix = 'data:image/svg+xml;base64,';
    assert.ok(url.startsWith(prefix));
    assert.equal(Buffer.from(url.slice(prefix.length), 'base64').toString('utf8'), findIcon('icon-database')!.svg);
    assert.equal(iconDataUrl('icon-database'), url);
    assert.equal(iconDataUrl('icon-nope'), undefined);
  });
});

describe('the build sanitiser', () => {
  const wrap = (inner: string, root = '') => `<svg xmlns="${SVG_NS}" viewBox="0 0 24 24" stroke="currentColor"${root}>${inner}</svg>`;

  test('keeps geometry and presentation, drops the root class and size, and resolves currentColor', () => {
    const svg = sanitizeLucideSvg(wrap('<g><circle cx="12" cy="12" r="10" fill="currentColor" /></g>', ' class="lucide" width="24"'), 'test');
    assert.equal(svg, `<svg xmlns="${SVG_NS}" width="64" height="64" viewBox="0 0 24 24" stroke="#1e1e1e"><g><circle cx="12" cy="12" r="10" fill="#1e1e1e"/></g></svg>`);
    assert.deepEqual(svgProblems(svg), []);
  });

  test('refuses anything that can run, load or link', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<path d="M0 0" onload="alert(1)"/>',
      '<path d="M0 0" onclick="alert(1)"/>',
      '<use href="#a"/>',
      '<image href="https://example.com/x.png"/>',
      '<a xlink:href="javascript:alert(1)"><path d="M0 0"/></a>',
      '<path d="M0 0" fill="url(https://example.com/#x)"/>',
      '<path d="M0 0" style="fill:red"/>',
      '<foreignObject><div/></foreignObject>',
      '<text>hi</text>',
      'loose text',
      '<g><path d="M0 0"/>',
      '<path d="M0 0" fill="&quot;"/>',
    ];
    for (const inner of hostile) assert.throws(() => sanitizeLucideSvg(wrap(inner), 'test'), { message: /^test: / }, inner);
    assert.throws(() => sanitizeLucideSvg(wrap('<path d="M0 0"/>', ' onload="x()"'), 'test'), { message: /^test: / }, 'root handler');
    assert.throws(() => sanitizeLucideSvg(wrap('<path d="M0 0"/>').replace('0 0 24 24', '0 0 48 48'), 'test'), { message: /^test: / }, 'other viewBox');
  });
});
