import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { RenderCache, renderCacheKey } from '../../src/render/cache.ts';

function tempDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cache-'));
}

const bytes = (size: number, fill: number) => Buffer.alloc(size, fill);

test('a cached render comes back byte for byte, with its note', async () => {
  const cache = new RenderCache(tempDirectory(), 1024 * 1024);
  await cache.put('k1', { bytes: bytes(100, 7), imagesTruncated: true });
  const hit = await cache.get('k1');
  assert.deepEqual(hit, { bytes: bytes(100, 7), imagesTruncated: true });
  assert.equal(await cache.get('k2'), undefined);
});

test('over its size bound the cache drops the least recently used renders first', async () => {
  const cache = new RenderCache(tempDirectory(), 800);
  await cache.put('a', { bytes: bytes(300, 1), imagesTruncated: false });
  await cache.put('b', { bytes: bytes(300, 2), imagesTruncated: false });
  assert.ok(await cache.get('a')); // a is now more recent than b
  await cache.put('c', { bytes: bytes(300, 3), imagesTruncated: false });
  assert.equal(await cache.get('b'), undefined);
  assert.ok(await cache.get('a'));
  assert.ok(await cache.get('c'));
  assert.ok(cache.size() <= 800);
});

test('a restarted cache finds what it wrote, and keeps evicting oldest first', async () => {
  const directory = tempDirectory();
  const first = new RenderCache(directory, 800);
  await first.put('old', { bytes: bytes(300, 1), imagesTruncated: false });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await first.put('new', { bytes: bytes(300, 2), imagesTruncated: false });
  const second = new RenderCache(directory, 800);
  assert.deepEqual((await second.get('new'))?.bytes, bytes(300, 2));
  await second.put('newer', { bytes: bytes(300, 3), imagesTruncated: false });
  assert.equal(await second.get('old'), undefined);
  assert.ok(await second.get('new'));
});

test('a file removed behind the cache reads as a miss', async () => {
  const directory = tempDirectory();
  const cache = new RenderCache(directory, 1024 * 1024);
  const key = renderCacheKey(['x']);
  await cache.put(key, { bytes: bytes(10, 1), imagesTruncated: false });
  fs.rmSync(path.join(directory, key.slice(0, 2), key));
  assert.equal(await cache.get(key), undefined);
});

test('cache keys separate their parts: ["ab", "c"] and ["a", "bc"] differ', () => {
  assert.notEqual(renderCacheKey(['ab', 'c']), renderCacheKey(['a', 'bc']));
  assert.equal(renderCacheKey(['ab', 'c']), renderCacheKey(['ab', 'c']));
});
