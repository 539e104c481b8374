import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findIcon, ICON_CATEGORIES, listIcons as catalogIcons } from '../../src/domain/icons/catalog.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { ApiError } from '../../src/errors.ts';

interface Item {
  id: string;
  label: string;
  category: string;
  subcategory?: string;
  aliases: string[];
  width: number;
  height: number;
  mimeType: string;
}

const ITEM_FIELDS = ['category', 'height', 'id', 'label', 'mimeType', 'width'];
const REQUIRED_GENERIC = ['user', 'server', 'database', 'cloud', 'lock', 'globe', 'phone', 'laptop', 'queue', 'cache'];

let h: Harness;
let reader: TestUser;
describe('http/icons', () => {
  before(async () => {
    h = await startHarness();
    reader = await h.user({ caps: 'read' });
  });
  after(() => h.close());

  async function list(query = ''): Promise<Item[]> {
    const res = await h.call('GET', `/api/v1/icons${query}`, { token: reader.token });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()), ['items']);
    return res.json().items;
  }

  describe('GET /icons', () => {
    test('lists at least 300 icons with unique icon-<name> ids', async () => {
      const items = await list();
      assert.ok(items.length >= 300, `${items.length} icons`);
      const ids = items.map((i) => i.id);
      assert.equal(new Set(ids).size, ids.length, 'ids are unique');
      for (const id of ids) assert.match(id, /^icon-[a-z0-9-]+$/);
    });

    test('includes the generic symbols every system diagram needs', async () => {
      const ids = new Set((await list()).map((i) => i.id));
      for (const name of REQUIRED_GENERIC) assert.ok(ids.has(`icon-${name}`), `icon-${name}`);
    });

    test('every item has exactly id, label, category, width, height and mimeType; never the image itself', async () => {
      for (const item of await list()) {
        const cloud = ['aws', 'azure', 'google-cloud', 'kubernetes'].includes(item.category);
        // The cloud sets add their vendor's category, and aliases where people know an icon by a shorter name.
        assert.deepEqual(Object.keys(item).filter((key) => !(cloud && (key === 'subcategory' || key === 'aliases'))).sort(), ITEM_FIELDS, item.id);
        if (cloud) assert.equal(typeof item.subcategory, 'string', item.id);
        assert.equal(typeof item.label, 'string');
        assert.ok((ICON_CATEGORIES as readonly string[]).includes(item.category), item.category);
        assert.ok(Number.isInteger(item.width) && item.width > 0 && Number.isInteger(item.height) && item.height > 0, item.id);
        assert.equal(item.mimeType, 'image/svg+xml');
      }
    });

    test('q filters case-insensitively on id, label and category', async () => {
      const postgres = await list('?q=PostGreS');
      assert.ok(postgres.some((i) => i.id === 'icon-postgresql'));
      for (const item of postgres) assert.ok(`${item.id} ${item.label} ${item.category} ${item.subcategory ?? ''} ${(item.aliases ?? []).join(' ')}`.toLowerCase().includes('postgres'), item.id);
      assert.ok((await list('?q=Apache%20Kafka')).some((i) => i.id === 'icon-kafka'), 'matches the label');
      assert.ok((await list('?q=messaging')).some((i) => i.id === 'icon-queue'), 'matches the category');
      assert.deepEqual(await list('?q=zzz-no-such-icon'), []);
    });

    test('q finds the cloud and platform icons by abbreviation, best match first, with their subcategory and aliases', async () => {
      for (const [q, id] of [['s3', 'icon-aws-simple-storage-service'], ['aks', 'icon-azure-kubernetes-services'], ['gke', 'icon-gcp-google-kubernetes-engine'], ['pvc', 'icon-k8s-persistentvolumeclaim']]) {
        const items = await list(`?q=${q}`);
        assert.equal(items[0]!.id, id, q);
      }
      const [s3] = await list('?q=s3');
      assert.equal(s3!.category, 'aws');
      assert.equal(s3!.subcategory, 'Storage');
      assert.ok(s3!.aliases.includes('s3'));
      const queues = await list('?category=aws&q=queue');
      assert.ok(queues.length > 0 && queues.every((i) => i.category === 'aws'));
    });

    test('category keeps only that category, and combines with q', async () => {
      const databases = await list('?category=database');
      assert.ok(databases.length > 0);
      assert.ok(databases.every((i) => i.category === 'database'));
      assert.ok(databases.some((i) => i.id === 'icon-database') && databases.some((i) => i.id === 'icon-postgresql'));
      assert.deepEqual((await list('?category=database&q=redis')).map((i) => i.id), ['icon-redis']);
    });

    test('the list is the catalog, in catalog order', async () => {
      assert.deepEqual((await list()).map((i) => i.id), catalogIcons().map((i) => i.id));
    });

    test('an unknown category, or a repeated parameter, is 400 bad_request', async () => {
      for (const query of ['?category=spaceships', '?category=', '?category=Database', '?category=database&category=cloud', '?q=a&q=b']) {
        const res = await h.call('GET', `/api/v1/icons${query}`, { token: reader.token });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'bad_request');
      }
      const res = await h.call('GET', '/api/v1/icons?category=spaceships', { token: reader.token });
      assert.match(res.json().message, /^category: /);
    });
  });

  describe('GET /icons/:id', () => {
    test('returns the raw SVG with image headers that keep it inert and cacheable', async () => {
      const res = await h.call('GET', '/api/v1/icons/icon-database', { token: reader.token });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/svg+xml');
      assert.equal(res.headers['cache-control'], 'private, max-age=86400, immutable');
      assert.equal(res.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'");
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.body, findIcon('icon-database')!.svg);
    });

    test('serves every catalog icon as standalone SVG with nothing executable or external', async () => {
      for (const { id } of await list()) {
        const res = await h.call('GET', `/api/v1/icons/${id}`, { token: reader.token });
        assert.equal(res.statusCode, 200, id);
        assert.equal(res.headers['content-type'], 'image/svg+xml', id);
        const svg = res.body;
        assert.ok(svg.startsWith('<svg'), id);
        assert.ok(svg.includes('xmlns="http://www.w3.org/2000/svg"'), id);
        assert.ok(!/<script/i.test(svg), `${id} has a script`);
        assert.ok(!/\son[a-z]+\s*=/i.test(svg), `${id} has an event handler`);
        // The vendors' architecture icons reference their own gradients, clip paths and masks, by id.
        const ids = new Set([...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
        for (const [, target] of svg.matchAll(/href\s*=\s*"([^"]*)"/gi)) assert.ok(ids.has(target!.replace(/^#/, '')) && target!.startsWith('#'), `${id} links ${target}`);
        for (const [, target] of svg.matchAll(/url\s*\(([^)]*)\)/gi)) assert.ok(target!.startsWith('#') && ids.has(target!.slice(1)), `${id} references ${target}`);
      }
    });

    test('an id outside the catalog is 404 not_found', async () => {
      for (const id of ['icon-nope', 'database', 'ICON-DATABASE', '__proto__', 'constructor', 'toString', 'icon-database.svg']) {
        const res = await h.call('GET', `/api/v1/icons/${encodeURIComponent(id)}`, { token: reader.token });
        assert.equal(res.statusCode, 404, id);
        assert.deepEqual(res.json(), new ApiError('not_found').toBody());
      }
    });
  });

  test('the OpenAPI document lists both icon routes with the category enum', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).json();
    const listOp = doc.paths['/api/v1/icons'].get;
    assert.equal(listOp['x-capability'], 'read');
    const category = listOp.parameters.find((p: { name: string }) => p.name === 'category');
    assert.deepEqual(category.schema.enum, [...ICON_CATEGORIES]);
    assert.ok(doc.paths['/api/v1/icons/{id}'].get.responses['404']);
  });
});
