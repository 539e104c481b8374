import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

/** A damaged render cache file never reaches a caller: it is dropped, the scene rendered afresh, the file replaced. */
let h: Harness;
let token: string;

describe('http/render-cache', () => {
  before(async () => {
    h = await startHarness({ env: { RENDER_WORKERS: '1' } });
    ({ token } = await h.user());
  });
  after(() => h.close());

  function cacheFiles(): string[] {
    const directory = path.join(h.config.dataDir, 'render-cache');
    if (!fs.existsSync(directory)) return [];
    return fs.readdirSync(directory).flatMap((shard) => fs.readdirSync(path.join(directory, shard)).map((name) => path.join(directory, shard, name)));
  }

  async function renderPng(id: string): Promise<Buffer> {
    const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png`, { token });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['x-render-quality'], 'faithful');
    return response.rawPayload;
  }

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

  for (const [damage, apply] of Object.entries(damages)) {
    test(`a cached PNG ${damage} on disk: the next render is the same valid PNG, and the cache file is written afresh`, async () => {
      const created = await h.call('POST', '/api/v1/diagrams', {
        token,
        body: { title: damage, spec: { nodes: [{ id: 'a', label: `Cache ${damage}` }, { id: 'b', label: 'Disk' }], edges: ['a -> b'] } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id: string = created.json().id;
      const before = new Set(cacheFiles());
      const first = await renderPng(id);
      const [file, ...others] = cacheFiles().filter((name) => !before.has(name));
      assert.ok(file, 'the render was cached');
      assert.deepEqual(others, []);
      const stored = fs.readFileSync(file);
      fs.writeFileSync(file, apply(stored));

      const again = await renderPng(id);
      assert.equal(pngSize(again).width, 1024);
      const decoded = PNG.sync.read(again);
      assert.equal(decoded.width, 1024);
      assert.ok(again.equals(first), 'the fresh render is byte for byte the first one');
      assert.ok(fs.readFileSync(file).equals(stored), 'the cache file holds the fresh render again');
      assert.match(h.logs(), new RegExp(`"key":"${path.basename(file)}"[^\\n]*damaged render cache entry dropped`));
    });
  }
});
