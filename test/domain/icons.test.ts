import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import { buildIconCatalog, renderCatalogJson, sanitizeLucideSvg } from '../../scripts/build-icon-catalog.ts';
import { cloudIcons } from '../../scripts/icons/cloud-sets.ts';
import { IconRefused, normaliseVendorSvg } from '../../scripts/icons/normalise-svg.ts';
import { CATALOG_FILE, findIcon, ICON_CATEGORIES, iconDataUrl, isCatalogIcon, listIcons } from '../../src/domain/icons/catalog.ts';

// jsdom ships no type declarations; only its DOMParser is used, typed by the DOM lib.
const { JSDOM } = (await import('jsdom' as string)) as { JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } } };
const xmlParser = new new JSDOM('').window.DOMParser();

const SVG_NS = 'http://www.w3.org/2000/svg';
const SAFE_ELEMENTS = new Set(['svg', 'g', 'path', 'circle', 'rect', 'line', 'polyline', 'polygon', 'ellipse']);
/** The vendors' architecture icons keep gradients, clip paths and masks, referenced only inside the icon. */
const VENDOR_ELEMENTS = new Set([...SAFE_ELEMENTS, 'defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'use']);
const CLOUD_CATEGORIES = ['aws', 'azure', 'google-cloud', 'kubernetes'];
const REQUIRED_GENERIC = ['user', 'server', 'database', 'cloud', 'lock', 'globe', 'phone', 'laptop', 'queue', 'cache', 'load-balancer'];

/**
 * Parses an SVG as XML, as a browser would, and returns every problem that could make it unsafe or broken.
 * `vendor`: a vendor's architecture icon, which may reference its own ids (and nothing else).
 */
function svgProblems(svg: string, vendor = false): string[] {
  const document = xmlParser.parseFromString(svg, 'image/svg+xml');
  const root = document.documentElement;
  if (root.getElementsByTagName('parsererror').length > 0 || root.localName !== 'svg') return ['not well-formed SVG'];
  const problems: string[] = [];
  if (root.namespaceURI !== SVG_NS) problems.push('root is not in the SVG namespace');
  const elements = [root, ...Array.from(root.querySelectorAll('*'))];
  const ids = new Set(elements.map((element) => element.getAttribute('id')).filter((id) => id !== null));
  for (const element of elements) {
    if (!(vendor ? VENDOR_ELEMENTS : SAFE_ELEMENTS).has(element.localName)) problems.push(`<${element.localName}>`);
    if (element.namespaceURI !== SVG_NS) problems.push(`<${element.localName}> outside the SVG namespace`);
    for (const attribute of Array.from(element.attributes)) {
      const local = vendor ? (/^url\(#([^)]+)\)$/.exec(attribute.value) ?? (attribute.name === 'href' ? /^#(.+)$/.exec(attribute.value) : null)) : null;
      if (local && ids.has(local[1]!)) continue;
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

  test('every icon is a standalone SVG 64 px on its longer side, with a label, a source and a shippable licence', () => {
    for (const icon of icons) {
      assert.ok(icon.label.trim().length > 0, icon.id);
      assert.equal(icon.mimeType, 'image/svg+xml');
      assert.ok(Number.isInteger(icon.width) && Number.isInteger(icon.height) && icon.width > 0 && icon.height > 0, icon.id);
      assert.equal(Math.max(icon.width, icon.height), 64, icon.id);
      const vendor = icon.source === 'thesvg';
      assert.equal(vendor, CLOUD_CATEGORIES.includes(icon.category), `${icon.id}: the cloud sets, and only they, come from the vendors' sets`);
      if (vendor) assert.match(icon.svg, new RegExp(`^<svg xmlns="${SVG_NS}" width="[\\d.]+" height="[\\d.]+" viewBox="[-\\d. ]+"`), icon.id);
      else assert.ok(icon.svg.startsWith(`<svg xmlns="${SVG_NS}" width="${icon.width}" height="${icon.height}" viewBox="0 0 24 24"`), icon.id);
      if (icon.source === 'lucide') assert.match(icon.license, /^ISC( AND MIT)?$/, icon.id);
      // AWS publishes its set under CC BY-ND: shipped with the drawing unchanged (the fidelity test below).
      else if (icon.category === 'aws') assert.equal(icon.license, 'CC-BY-ND-2.0', icon.id);
      else assert.ok(!/NC|ND|GPL|custom/i.test(icon.license), `${icon.id}: ${icon.license}`);
      assert.match(icon.origin, /^https:\/\//, icon.id);
    }
  });

  test('every SVG parses as XML and holds only its subset: no script, handler, text, image, filter, or reference outside the icon', () => {
    for (const icon of icons) assert.deepEqual(svgProblems(icon.svg, icon.source === 'thesvg'), [], icon.id);
  });

  test('no two icons share an id inside their SVGs (ids are renamed after the icon)', () => {
    const owner = new Map<string, string>();
    for (const icon of icons) {
      for (const [, id] of icon.svg.matchAll(/ id="([^"]+)"/g)) {
        assert.ok(!owner.has(id!) || owner.get(id!) === icon.id, `${id} in ${icon.id} and ${owner.get(id!)}`);
        assert.ok(id!.startsWith(icon.id.slice('icon-'.length)), `${icon.id}: ${id}`);
        owner.set(id!, icon.id);
      }
    }
  });

  test('each cloud and platform set is there in quantity, with its own subcategories', () => {
    for (const category of CLOUD_CATEGORIES) {
      const set = icons.filter((icon) => icon.category === category);
      assert.ok(set.length >= (category === 'kubernetes' ? 30 : 150), `${category}: ${set.length} icons`);
      assert.ok(set.every((icon) => typeof icon.subcategory === 'string' && icon.subcategory !== ''), category);
      assert.ok(new Set(set.map((icon) => icon.subcategory)).size >= (category === 'kubernetes' ? 5 : 8), `${category} subcategories`);
    }
  });

  test('brand icons are filled in their colour, symbols are stroked in a dark ink', () => {
    assert.match(findIcon('icon-postgresql')!.svg, /<path fill="#4169E1" d="M/);
    assert.match(findIcon('icon-server')!.svg, /stroke="#1e1e1e"/);
  });
});

describe('finding the cloud and platform icons', () => {
  const first = (q: string) => listIcons({ q })[0]?.id;
  // Each set, by abbreviation and by name: the first answer is the service meant.
  const EXPECTED: Record<string, string> = {
    s3: 'icon-aws-simple-storage-service',
    'Amazon Simple Storage Service': 'icon-aws-simple-storage-service',
    lambda: 'icon-aws-lambda',
    'aws lambda': 'icon-aws-lambda',
    ec2: 'icon-aws-ec2',
    sqs: 'icon-aws-simple-queue-service',
    eks: 'icon-aws-elastic-kubernetes-service',
    rds: 'icon-aws-rds',
    aks: 'icon-azure-kubernetes-services',
    'azure functions': 'icon-azure-function-apps',
    cosmos: 'icon-azure-cosmos-db',
    vnet: 'icon-azure-virtual-networks',
    gke: 'icon-gcp-google-kubernetes-engine',
    'Google Kubernetes Engine': 'icon-gcp-google-kubernetes-engine',
    bq: 'icon-gcp-bigquery',
    gcs: 'icon-gcp-cloud-storage',
    'cloud run': 'icon-gcp-cloud-run',
    pod: 'icon-k8s-pod',
    ingress: 'icon-k8s-ingress',
    svc: 'icon-k8s-service',
    pvc: 'icon-k8s-persistentvolumeclaim',
    deployment: 'icon-k8s-deployment',
    // After the name of the set.
    'aws s3': 'icon-aws-simple-storage-service',
    'amazon sqs': 'icon-aws-simple-queue-service',
    'azure aks': 'icon-azure-kubernetes-services',
    'gcp pub sub': 'icon-gcp-pubsub',
    'k8s svc': 'icon-k8s-service',
  };
  for (const [q, id] of Object.entries(EXPECTED)) test(`"${q}" finds ${id} first`, () => assert.equal(first(q), id, JSON.stringify(listIcons({ q }).slice(0, 5).map((i) => i.id))));

  test('an exact product outranks a partial one: the brand before the services named after it, the service before its resources', () => {
    assert.equal(first('postgresql'), 'icon-postgresql');
    assert.equal(first('kafka'), 'icon-kafka');
    const lambda = listIcons({ q: 'lambda' }).map((i) => i.id);
    assert.ok(lambda.indexOf('icon-aws-lambda') < lambda.indexOf('icon-aws-simple-storage-service-s3-object-lambda'));
    const pods = listIcons({ q: 'pod' }).map((i) => i.id);
    assert.ok(pods.includes('icon-podman') && pods.indexOf('icon-k8s-pod') < pods.indexOf('icon-podman'), 'the word before the word inside another');
  });

  test('category narrows a search to one set', () => {
    const queues = listIcons({ category: 'aws', q: 'queue' });
    assert.ok(queues.length > 0 && queues.every((icon) => icon.category === 'aws'));
    assert.equal(queues[0]!.id, 'icon-aws-simple-queue-service');
    assert.deepEqual(listIcons({ category: 'kubernetes', q: 's3' }), []);
  });

  test('every word must match: a query is not a bag of alternatives', () => {
    const found = listIcons({ q: 'azure kubernetes' });
    assert.ok(found.some((icon) => icon.id === 'icon-azure-kubernetes-services'), 'the icon with both words is found');
    assert.ok(!found.some((icon) => icon.id === 'icon-kubernetes' || icon.id === 'icon-azure-virtual-machine'), 'icons with one of them are not');
    for (const icon of found) {
      const text = `${icon.id} ${icon.label} ${icon.category} ${icon.subcategory ?? ''} ${(icon.aliases ?? []).join(' ')}`.toLowerCase();
      assert.ok(text.includes('azure') && text.includes('kubernetes'), icon.id);
    }
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
      byCategory
        .filter((i) => i.category === 'observability')
        .map((i) => i.id)
        .sort(),
      listIcons({ category: 'observability' }).map((i) => i.id),
    );
    for (const icon of listIcons({ q: 'sql' })) assert.ok(`${icon.id} ${icon.label} ${icon.category} ${icon.subcategory ?? ''} ${(icon.aliases ?? []).join(' ')}`.toLowerCase().includes('sql'), icon.id);
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

describe("the vendors' icon normaliser", () => {
  const svg = (inner: string, root = ' viewBox="0 0 18 18"') => `<svg xmlns="${SVG_NS}"${root}>${inner}</svg>`;

  test('resolves the cascade into attributes: presentation attribute, then class rule, then inline style', () => {
    const out = normaliseVendorSvg(
      svg('<style>.a{fill:#111}.b{fill:#222;stroke:#333}</style><path class="a" fill="#000" d="M0 0h9"/><path class="a b" style="fill:#444" d="M0 0h9"/>'),
      'x',
      64,
    );
    assert.equal(out, `<svg xmlns="${SVG_NS}" width="64" height="64" viewBox="0 0 18 18"><path fill="#111" d="M0 0h9"/><path d="M0 0h9" fill="#444" stroke="#333"/></svg>`);
  });

  test('renames ids after the icon and keeps references inside it; sizes the longer side, keeping the aspect', () => {
    const out = normaliseVendorSvg(
      svg('<defs><linearGradient id="g1"><stop offset="0" stop-color="#0078d4"/></linearGradient></defs><rect width="9" height="4" fill="url(#g1)"/>', ' width="36" height="18"'),
      'azure-thing',
      64,
    );
    assert.match(out, /^<svg xmlns="[^"]+" width="64" height="32" viewBox="0 0 36 18">/);
    assert.match(out, /<linearGradient id="azure-thing-0">/);
    assert.match(out, /fill="url\(#azure-thing-0\)"/);
    assert.deepEqual(svgProblems(out, true), []);
  });

  test("draws Illustrator's white-backdrop mask filter as the white rectangle it stands for", () => {
    const out = normaliseVendorSvg(
      svg(
        '<defs><filter id="f" x="1" y="2" width="3" height="4" filterUnits="userSpaceOnUse"><feFlood flood-color="#fff" result="bg"/><feBlend in="SourceGraphic" in2="bg"/></filter>' +
          '<mask id="m" x="1" y="2" width="3" height="4" maskUnits="userSpaceOnUse"><circle cx="2" cy="3" r="1" style="filter:url(#f)"/></mask></defs><g style="mask:url(#m)"><path d="M0 0h9v9z"/></g>',
      ),
      'p',
      64,
    );
    assert.match(out, /<mask id="p-1" x="1" y="2" width="3" height="4" maskUnits="userSpaceOnUse"><rect x="1" y="2" width="3" height="4" fill="#fff"\/><circle cx="2" cy="3" r="1"\/><\/mask>/);
    assert.doesNotMatch(out, /filter/);
  });

  test('drops descriptions and editor metadata, and refuses anything that can run, load, link or that the subset lacks', () => {
    assert.equal(
      normaliseVendorSvg(svg('<title>T</title><metadata><x/></metadata><desc>d</desc><path d="M0 0h1" data-name="n" isolation="isolate"/>'), 'x', 64),
      `<svg xmlns="${SVG_NS}" width="64" height="64" viewBox="0 0 18 18"><path d="M0 0h1"/></svg>`,
    );
    const hostile = [
      '<script>alert(1)</script>',
      '<path d="M0 0" onload="alert(1)"/>',
      '<image href="https://example.com/x.png"/>',
      '<use href="https://example.com/x.svg#a"/>',
      '<path d="M0 0" fill="url(https://example.com/#x)"/>',
      '<path d="M0 0" fill="url(#missing)"/>',
      '<path d="M0 0" style="fill:url(javascript:alert(1))"/>',
      '<path d="M0 0" style="behavior:url(x.htc)"/>',
      '<style>path{fill:red}</style><path d="M0 0"/>',
      '<style>@import url(x.css);</style><path d="M0 0"/>',
      '<foreignObject><div/></foreignObject>',
      '<text>hi</text>',
      'loose text',
      '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter><path d="M0 0" filter="url(#f)"/>',
      '<path d="M0 0" fill="&quot;"/>',
      '<path d="M0 0" fill="currentColor"/>',
      '<g><path d="M0 0"/>',
      '<defs/>',
    ];
    for (const inner of hostile) assert.throws(() => normaliseVendorSvg(svg(inner), 'x', 64), IconRefused, inner);
    assert.throws(() => normaliseVendorSvg(svg('<path d="M0 0h1"/>', ''), 'x', 64), IconRefused, 'no size');
  });
});

// The vendors' sets are fetched from the registry (once, into node_modules/.cache) by the build.
test("every cloud and platform icon draws what the vendor's own file draws (rendered side by side)", () => {
  const { icons, originals } = cloudIcons();
  const viewBoxed = (svg: string) => {
    const start = svg.indexOf('<svg');
    const open = svg.slice(start, svg.indexOf('>', start));
    if (/viewBox=/.test(open)) return svg;
    const [width, height] = [/ width="([\d.]+)"/.exec(open)![1], / height="([\d.]+)"/.exec(open)![1]];
    return svg.replace('<svg', `<svg viewBox="0 0 ${width} ${height}"`);
  };
  // Each batch drawn as one sheet of cells, ours and the vendor's alike: one render per sheet (resvg's
  // memory is freed only when the collector runs, so one render per icon would pile up).
  const CELL = 48;
  const COLUMNS = 16;
  const sheet = (svgs: string[]) => {
    const rows = Math.ceil(svgs.length / COLUMNS);
    const images = svgs.map((svg, n) => `<image x="${(n % COLUMNS) * CELL}" y="${Math.floor(n / COLUMNS) * CELL}" width="${CELL}" height="${CELL}" href="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"/>`);
    const page = `<svg xmlns="http://www.w3.org/2000/svg" width="${COLUMNS * CELL}" height="${rows * CELL}"><rect width="100%" height="100%" fill="#fff"/>${images.join('')}</svg>`;
    return new Resvg(page).render().pixels;
  };
  // resvg rasterises an image at its own size before scaling it into the cell: ours is drawn at the
  // vendor's size, so that the two differ only by what they draw.
  const rootSize = (svg: string) => {
    const start = svg.indexOf('<svg');
    const open = svg.slice(start, svg.indexOf('>', start));
    return [/ width="([^"]+)"/.exec(open)?.[1], / height="([^"]+)"/.exec(open)?.[1]];
  };
  const atSize = (svg: string, [width, height]: Array<string | undefined>) =>
    svg.replace(/^<svg xmlns="([^"]+)" width="[^"]+" height="[^"]+"/, `<svg xmlns="$1"${width ? ` width="${width}"` : ''}${height ? ` height="${height}"` : ''}`);
  const different: string[] = [];
  for (let from = 0; from < icons.length; from += COLUMNS * 8) {
    const batch = icons.slice(from, from + COLUMNS * 8);
    const ours = sheet(batch.map((icon) => atSize(icon.svg, rootSize(viewBoxed(originals.get(icon.id)!)))));
    const theirs = sheet(batch.map((icon) => viewBoxed(originals.get(icon.id)!)));
    const width = COLUMNS * CELL;
    batch.forEach((icon, n) => {
      const [left, top] = [(n % COLUMNS) * CELL, Math.floor(n / COLUMNS) * CELL];
      let total = 0;
      for (let y = top; y < top + CELL; y++) {
        for (let x = left; x < left + CELL; x++) {
          const i = (y * width + x) * 4;
          for (let c = 0; c < 3; c++) total += Math.abs(ours[i + c]! - theirs[i + c]!);
        }
      }
      const perChannel = total / (CELL * CELL * 3);
      if (perChannel > 0.5) different.push(`${icon.id}: ${perChannel.toFixed(2)} per channel`);
    });
  }
  assert.ok(icons.length > 1500, `${icons.length} icons compared`);
  assert.deepEqual(different, []);
});
