import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

/**
 * A damaged render cache file never reaches a caller: it is dropped, the scene rendered afresh, the file replaced.
 * The server that wrote an entry serves it from memory; the file is read by another server on the same DATA_DIR
 * (or this one after a restart), here `reader`.
 */
let h: Harness;
let reader: Harness;
let token: string;

const damages: Record<string, (file: Buffer) => Buffer> = {
  truncated: (file) => file.subarray(0, Math.floor(file.length / 2)),
  'with one image byte flipped': (file) => {
    const copy = Buffer.from(file);
    copy[file.length - 1000] = copy[file.length - 1000]! ^ 0x01;
    return copy;
  },
  'with one header byte flipped': (file) => {
    const copy = Buffer.from(file);
    copy[5] = copy[5]! ^ 0x01;
    return copy;
  },
  emptied: () => Buffer.alloc(0),
};

function cacheFiles(): string[] {
  const directory = path.join(h.config.dataDir, 'render-cache');
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory).flatMap((shard) => fs.readdirSync(path.join(directory, shard)).map((name) => path.join(directory, shard, name)));
}

async function renderPng(id: string, server: Harness): Promise<Buffer> {
  const response = await server.call('GET', `/api/v1/diagrams/${id}/render?format=png`, { token });
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['x-render-quality'], 'faithful');
  return response.rawPayload;
}

describe('http/render-cache', () => {
  /** Per damage: the diagram, its first render by `h`, and the cache file that holds it. */
  const cached = new Map<string, { id: string; first: Buffer; file: string }>();

  before(async () => {
    h = await startHarness({ env: { RENDER_WORKERS: '1' } });
    ({ token } = await h.user());
    for (const damage of Object.keys(damages)) {
      const created = await h.call('POST', '/api/v1/diagrams', {
        token,
        body: { title: damage, spec: { nodes: [{ id: 'a', label: `Cache ${damage}` }, { id: 'b', label: 'Disk' }], edges: ['a -> b'] } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id: string = created.json().id;
      const known = new Set(cacheFiles());
      const first = await renderPng(id, h);
      const [file, ...others] = cacheFiles().filter((name) => !known.has(name));
      assert.ok(file, 'the render was cached');
      assert.deepEqual(others, []);
      cached.set(damage, { id, first, file });
    }
    // Started after the renders: it finds their files on its first read, as a restarted server would.
    reader = await startHarness({ env: { RENDER_WORKERS: '1', DATA_DIR: h.config.dataDir } });
  });
  after(async () => {
    await reader?.close();
    await h.close();
  });

  for (const [damage, apply] of Object.entries(damages)) {
    test(`a cached PNG ${damage} on disk: the next render is the same valid PNG, and the cache file is written afresh`, async () => {
      const { id, first, file } = cached.get(damage)!;
      const stored = fs.readFileSync(file);
      fs.writeFileSync(file, apply(stored));

      assert.ok((await renderPng(id, h)).equals(first), 'the server that wrote the entry serves it from memory');
      const again = await renderPng(id, reader);
      assert.equal(pngSize(again).width, 1024);
      const decoded = PNG.sync.read(again);
      assert.equal(decoded.width, 1024);
      assert.ok(again.equals(first), 'the fresh render is byte for byte the first one');
      assert.ok(fs.readFileSync(file).equals(stored), 'the cache file holds the fresh render again');
      assert.match(reader.logs(), new RegExp(`"key":"${path.basename(file)}"[^\\n]*damaged render cache entry dropped`));
    });
  }

  test('the cache names a scene by its diagram and content revision: each write renders afresh, a past revision renders as it was', async () => {
    const created = await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'Revisions', spec: { nodes: [{ id: 'a', label: 'Before' }], edges: [] } } });
    assert.equal(created.statusCode, 201, created.body);
    const id: string = created.json().id;
    const svg = async (query = '') => {
      const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg${query}`, { token });
      assert.equal(response.statusCode, 200, response.body);
      return response.body;
    };
    const first = await svg();
    assert.equal(await svg(), first);
    const seen = new Set([first]);
    const writes = [
      { ops: [{ op: 'move', id: 'a', dx: 40, dy: 0 }] },
      { ops: [{ op: 'update', id: 'a-label', set: { text: 'After' } }] },
    ];
    for (const body of writes) {
      const patched = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token, body });
      assert.equal(patched.statusCode, 200, patched.body);
      const now = await svg();
      assert.ok(!seen.has(now), `${JSON.stringify(body)} shows in the next render`);
      seen.add(now);
    }
    assert.match([...seen].at(-1)!, /After/);
    assert.equal(await svg('&rev=r1'), first, 'the first revision, drawn again, is the first picture');
    assert.match(await svg(), /After/, 'and the current one is still the latest');
  });
});
