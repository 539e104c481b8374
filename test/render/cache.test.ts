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

test('a cached render comes back byte for byte, with its notes', async () => {
  const cache = new RenderCache(tempDirectory(), 1024 * 1024);
  const renders = [
    { bytes: bytes(100, 7), imagesTruncated: true, textTruncated: false },
    { bytes: bytes(100, 8), imagesTruncated: false, textTruncated: true },
    { bytes: bytes(100, 9), imagesTruncated: true, textTruncated: true },
  ];
  for (const [i, render] of renders.entries()) await cache.put(`k${i}`, render);
  for (const [i, render] of renders.entries()) assert.deepEqual(await cache.get(`k${i}`), render);
  assert.equal(await cache.get('k3'), undefined);
});

test('over its size bound the cache drops the least recently used renders first', async () => {
  const cache = new RenderCache(tempDirectory(), 800);
  await cache.put('a', { bytes: bytes(300, 1), imagesTruncated: false, textTruncated: false });
  await cache.put('b', { bytes: bytes(300, 2), imagesTruncated: false, textTruncated: false });
  assert.ok(await cache.get('a')); // a is now more recent than b
  await cache.put('c', { bytes: bytes(300, 3), imagesTruncated: false, textTruncated: false });
  assert.equal(await cache.get('b'), undefined);
  assert.ok(await cache.get('a'));
  assert.ok(await cache.get('c'));
  assert.ok(cache.size() <= 800);
});

test('a restarted cache finds what it wrote, and keeps evicting oldest first', async () => {
  const directory = tempDirectory();
  const first = new RenderCache(directory, 800);
  await first.put('old', { bytes: bytes(300, 1), imagesTruncated: false, textTruncated: false });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await first.put('new', { bytes: bytes(300, 2), imagesTruncated: false, textTruncated: false });
  const second = new RenderCache(directory, 800);
  assert.deepEqual((await second.get('new'))?.bytes, bytes(300, 2));
  await second.put('newer', { bytes: bytes(300, 3), imagesTruncated: false, textTruncated: false });
  assert.equal(await second.get('old'), undefined);
  assert.ok(await second.get('new'));
});

test('a file removed behind the cache reads as a miss after a restart', async () => {
  const directory = tempDirectory();
  const cache = new RenderCache(directory, 1024 * 1024);
  const key = renderCacheKey(['x']);
  await cache.put(key, { bytes: bytes(10, 1), imagesTruncated: false, textTruncated: false });
  fs.rmSync(path.join(directory, key.slice(0, 2), key));
  assert.equal(await new RenderCache(directory, 1024 * 1024).get(key), undefined);
});

test('recent entries are served from memory, reading no file: the cache that holds one serves it after its file is gone, a restarted one misses', async () => {
  const directory = tempDirectory();
  const cache = new RenderCache(directory, 1024 * 1024);
  const [written, read] = [renderCacheKey(['written']), renderCacheKey(['read'])];
  const render = (fill: number) => ({ bytes: bytes(1000, fill), imagesTruncated: false, textTruncated: true });
  await cache.put(written, render(1));
  await cache.put(read, render(2));
  // `read` reaches a second cache's memory by a read from disk.
  const restarted = new RenderCache(directory, 1024 * 1024);
  assert.deepEqual(await restarted.get(read), render(2));
  for (const key of [written, read]) fs.rmSync(path.join(directory, key.slice(0, 2), key));
  assert.deepEqual(await cache.get(written), render(1), 'held since it was written');
  assert.deepEqual(await cache.get(read), render(2));
  assert.deepEqual(await restarted.get(read), render(2), 'held since it was read');
  assert.equal(await restarted.get(written), undefined, 'never held: a miss');
  assert.equal(await new RenderCache(directory, 1024 * 1024).get(read), undefined);
});

test('the memory holds an eighth of the bound, least recently used out first; an entry over a quarter of that is not held', async () => {
  const directory = tempDirectory();
  // 8,000 bytes on disk: 1,000 in memory, entries of at most 250.
  const cache = new RenderCache(directory, 8000);
  const keys = ['a', 'b', 'c', 'd', 'e', 'big'].map((name) => renderCacheKey([name]));
  for (const [i, key] of keys.entries()) await cache.put(key, { bytes: bytes(i === 5 ? 300 : 240, i), imagesTruncated: false, textTruncated: false });
  for (const key of keys) fs.rmSync(path.join(directory, key.slice(0, 2), key));
  const held = await Promise.all(keys.map(async (key) => (await cache.get(key)) !== undefined));
  assert.deepEqual(held, [false, true, true, true, true, false]);
});

test('the memory holds at most 64 MB however large the bound', async () => {
  const directory = tempDirectory();
  const cache = new RenderCache(directory, 4096 * 1024 * 1024);
  const mb = 1024 * 1024;
  const keys = ['a', 'b', 'c', 'd', 'e'].map((name) => renderCacheKey([name]));
  // 15 MB each (under a quarter of 64 MB): the fifth takes the total past 64 MB.
  for (const [i, key] of keys.entries()) await cache.put(key, { bytes: bytes(15 * mb, i), imagesTruncated: false, textTruncated: false });
  for (const key of keys) fs.rmSync(path.join(directory, key.slice(0, 2), key));
  const held = await Promise.all(keys.map(async (key) => (await cache.get(key)) !== undefined));
  assert.deepEqual(held, [false, true, true, true, true]);
  fs.rmSync(directory, { recursive: true, force: true });
});

test('cache keys separate their parts: ["ab", "c"] and ["a", "bc"] differ', () => {
  assert.notEqual(renderCacheKey(['ab', 'c']), renderCacheKey(['a', 'bc']));
  assert.equal(renderCacheKey(['ab', 'c']), renderCacheKey(['ab', 'c']));
});

/** A cache whose warnings are kept, on a fresh directory holding one entry it has not read yet; and where that entry's file is. */
async function cacheWithOneEntry(render = { bytes: bytes(200, 9), imagesTruncated: true, textTruncated: false }) {
  const directory = tempDirectory();
  const warnings: Array<{ fields: { key: string; reason: string }; message: string }> = [];
  const key = renderCacheKey(['scene']);
  await new RenderCache(directory, 1024 * 1024).put(key, render);
  // Read by another cache on the directory (another server, or this one restarted): the writer holds the entry in memory.
  const cache = new RenderCache(directory, 1024 * 1024, { warn: (fields, message) => void warnings.push({ fields, message }) });
  return { cache, key, file: path.join(directory, key.slice(0, 2), key), warnings, render };
}

const damages: Record<string, (file: Buffer) => Buffer> = {
  'truncated': (file) => file.subarray(0, file.length - 50),
  'with one image byte flipped': (file) => flipByte(file, file.length - 100),
  // A header that still parses ("hmagesTruncated"): only a checksum over the header sees it.
  'with one header byte flipped': (file) => flipByte(file, 6),
  'with its header length overwritten': (file) => Buffer.from(file).fill(0xff, 0, 4),
  'emptied': () => Buffer.alloc(0),
};

function flipByte(file: Buffer, at: number): Buffer {
  const copy = Buffer.from(file);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

for (const [damage, apply] of Object.entries(damages)) {
  test(`an entry ${damage} on disk reads as a miss, is deleted and reported once, and a fresh put is served`, async () => {
    const { cache, key, file, warnings, render } = await cacheWithOneEntry();
    fs.writeFileSync(file, apply(fs.readFileSync(file)));
    assert.equal(await cache.get(key), undefined);
    assert.equal(fs.existsSync(file), false);
    assert.equal(cache.size(), 0);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.fields.key, key);
    assert.equal(await cache.get(key), undefined);
    assert.equal(warnings.length, 1, 'a dropped entry is not reported again');
    await cache.put(key, render);
    assert.deepEqual(await cache.get(key), render);
  });
}

test('two readers of the same damaged entry both miss, and it is reported once', async () => {
  const { cache, key, file, warnings } = await cacheWithOneEntry();
  fs.writeFileSync(file, flipByte(fs.readFileSync(file), 10));
  assert.deepEqual(await Promise.all([cache.get(key), cache.get(key)]), [undefined, undefined]);
  assert.equal(warnings.length, 1);
});

test('the report of a damaged entry names its key and reason, never its bytes', async () => {
  const { cache, key, file, warnings } = await cacheWithOneEntry({ bytes: Buffer.from('SECRET-IMAGE-BYTES'.repeat(10)), imagesTruncated: false, textTruncated: false });
  fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 60));
  await cache.get(key);
  assert.deepEqual(Object.keys(warnings[0]!.fields).sort(), ['key', 'reason']);
  assert.doesNotMatch(JSON.stringify(warnings), /SECRET/);
});

test('an entry in the format before checksums, found after a restart, reads as a miss and is deleted', async () => {
  const directory = tempDirectory();
  const key = renderCacheKey(['old scene']);
  const header = Buffer.from('{}', 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length, 0);
  const file = path.join(directory, key.slice(0, 2), key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.concat([length, header, bytes(300, 5)]));
  const cache = new RenderCache(directory, 1024 * 1024);
  assert.equal(await cache.get(key), undefined);
  assert.equal(fs.existsSync(file), false);
  assert.equal(cache.size(), 0);
});
