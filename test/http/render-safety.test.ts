import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness } from '../helpers/harness.ts';

/** Whatever a scene holds, a rendered SVG and the public page run nothing and load nothing. */
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new () => { window: any } };
const HOSTILE = '</text><script>alert(1)</script><svg onload=alert(1)><foreignObject><iframe src="https://evil.example/">';
const base = { x: 0, y: 0, width: 200, height: 80, angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, groupIds: [], frameId: null, roundness: null, seed: 1, version: 1, versionNonce: 1, isDeleted: false, boundElements: null, updated: 1, link: null, locked: false };
const SCENE = {
  elements: [
    { ...base, id: 'label', type: 'text', text: HOSTILE, originalText: HOSTILE, fontSize: 20, fontFamily: 5, textAlign: 'left', verticalAlign: 'top', containerId: null, autoResize: true, lineHeight: 1.25, link: 'https://evil.example/"><script>alert(2)</script>' },
    { ...base, id: '"><script>alert(3)</script>', type: 'rectangle', y: 120, strokeColor: 'red" onload="alert(4)', backgroundColor: 'url(https://evil.example/x.png)', link: 'mailto:x@example.com' },
    { ...base, id: 'frame', type: 'frame', y: 240, name: '<img src=x onerror=alert(5)>' },
    { ...base, id: 'pic', type: 'image', y: 360, fileId: '"><script>alert(6)</script>', status: 'saved', scale: [1, 1] },
    { ...base, id: 'arrow', type: 'arrow', y: 500, points: [[0, 0], [200, 40]], startArrowhead: 'dot" onclick="alert(7)', endArrowhead: 'triangle', strokeColor: 'javascript:alert(8)' },
  ],
};

/** Checks the parsed document, not the text: "onload=" inside a label is harmless text, an onload attribute is not. */
function assertInert(svg: string, where: string): void {
  assert.doesNotMatch(svg, /<script/i, `${where}: a script element`);
  const parsed = new new JSDOM().window.DOMParser().parseFromString(svg, 'image/svg+xml');
  assert.equal(parsed.getElementsByTagName('parsererror').length, 0, `${where}: not well-formed XML`);
  assert.equal(parsed.documentElement.localName, 'svg');
  for (const element of [parsed.documentElement, ...parsed.documentElement.querySelectorAll('*')]) {
    assert.ok(!['script', 'foreignObject', 'iframe', 'img', 'a', 'object', 'embed'].includes(element.localName), `${where}: a <${element.localName}> element`);
    for (const { name, value } of element.attributes) {
      assert.ok(!/^on/i.test(name), `${where}: an event handler attribute ${name}`);
      assert.doesNotMatch(value, /javascript:/i, `${where}: a javascript: URL in ${name}`);
      assert.doesNotMatch(value, /url\(\s*['"]?(?!#|data:)/i, `${where}: an external url() in ${name}`);
      if (/href$/i.test(name)) assert.match(value, /^(#|data:image\/)/, `${where}: ${name} points out of the document`);
    }
    if (element.localName === 'style') assert.doesNotMatch(element.textContent ?? '', /url\(\s*['"]?(?!data:)|@import/i, `${where}: a stylesheet loading from elsewhere`);
  }
}

let h: Harness;
let token: string;
let id: string;

describe('http/render-safety', () => {
  before(async () => {
    h = await startHarness();
    ({ token } = await h.user());
    const created = await h.call('POST', '/api/v1/diagrams', { token, body: { title: '<script>alert("title")</script>', scene: SCENE } });
    assert.equal(created.statusCode, 201, created.body);
    id = created.json().id;
  });
  after(() => h.close());

  for (const quality of ['faithful', 'fast'] as const) {
    test(`a ${quality} SVG of a hostile scene holds no script, handler, link or external reference, and its text survives escaped`, async () => {
      const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=${quality}`, { token });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['x-render-quality'], quality);
      assertInert(response.body, quality);
      assert.match(response.body, /&lt;\/text&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    });
  }

  test('a label with a non-breaking space and characters XML forbids still renders faithfully, as well-formed XML and a PNG', async () => {
    const label = 'Build\u00a0step \u0001 end\uFFFE';
    const created = await h.call('POST', '/api/v1/diagrams', {
      token,
      body: { title: 'nbsp', scene: { elements: [{ ...base, id: 'nb', type: 'text', text: label, originalText: label, fontSize: 20, fontFamily: 5, textAlign: 'left', verticalAlign: 'top', containerId: null, autoResize: true, lineHeight: 1.25 }] } },
    });
    const nbspId = created.json().id;
    const svg = await h.call('GET', `/api/v1/diagrams/${nbspId}/render?format=svg`, { token });
    assert.equal(svg.headers['x-render-quality'], 'faithful');
    assertInert(svg.body, 'nbsp label');
    assert.ok(svg.body.includes('Build\u00a0step'), 'the non-breaking space is kept as a character');
    assert.ok(!svg.body.includes('&nbsp;'));
    const png = await h.call('GET', `/api/v1/diagrams/${nbspId}/render?format=png`, { token });
    assert.equal(png.headers['x-render-quality'], 'faithful', 'resvg reads it: no fallback');
  });

  test('the public page of a hostile scene shows it as an inert image and escapes the title', async () => {
    const link = await h.call('PUT', `/api/v1/diagrams/${id}/public-link`, { token, body: { enabled: true } });
    assert.equal(link.statusCode, 200, link.body);
    const page = await h.call('GET', new URL(link.json().url).pathname);
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-security-policy'] as string, /default-src 'none'/);
    // The one script is the page's own viewer, served from this origin; nothing in the scene or title becomes a script.
    assert.match(page.headers['content-security-policy'] as string, /script-src 'self'/);
    assert.doesNotMatch(page.body.replace('<script src="/p/viewer.js" defer></script>', ''), /<script/i);
    assert.match(page.body, /&#60;script&#62;alert\(&#34;title&#34;\)/);
    const image = /<img class="diagram" src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/.exec(page.body);
    assert.ok(image, 'the page shows the diagram as an image');
    const svg = Buffer.from(image[1]!, 'base64').toString('utf8');
    assertInert(svg, 'public page');
    assert.match(svg, /@font-face/, 'the faithful SVG, with the editor font embedded');
  });
});
