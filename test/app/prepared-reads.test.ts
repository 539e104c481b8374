import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagramEtag } from '../../src/app/diagrams/etag.ts';
import { PREPARED_READS_BYTES, PreparedReads } from '../../src/app/diagrams/prepared-reads.ts';
import type { DiagramMeta } from '../../src/store/store.ts';

const URL_BASE = 'http://drawbridge.test';
const meta = (id: string, over: Partial<DiagramMeta> = {}): DiagramMeta => ({
  id,
  ownerId: 'owner',
  title: 'T',
  folderId: null,
  workspaceId: null,
  starred: false,
  elementCount: 1,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  docUpdatedAt: '2026-12-01T00:00:00.000Z',
  deletedAt: null,
  ...over,
});

test('the server keeps 64 MB of prepared read answers (as the operations guide says)', () => {
  assert.equal(PREPARED_READS_BYTES, 64 * 1024 * 1024);
});

test('a prepared answer is used only while every field its ETag covers is unchanged, and carries that ETag', () => {
  const reads = new PreparedReads(1024);
  const d = meta('a');
  const prepared = reads.set(d, URL_BASE, '{"id":"a"}');
  assert.equal(prepared.etag, diagramEtag(d, URL_BASE));
  const again = reads.get(d, URL_BASE)!;
  assert.equal(again.etag, prepared.etag);
  assert.ok(again.body.equals(Buffer.from('{"id":"a"}')));
  assert.equal(reads.etagOf(d, URL_BASE), prepared.etag);
  for (const change of [{ docUpdatedAt: '2026-12-02T00:00:00.000Z' }, { title: 'U' }, { folderId: 'f' }, { deletedAt: '2026-12-02T00:00:00.000Z' }, { starred: true }, { updatedAt: '2026-12-02T00:00:00.000Z' }]) {
    const changed = meta('a', change);
    assert.equal(reads.get(changed, URL_BASE), undefined, JSON.stringify(change));
    assert.equal(reads.etagOf(changed, URL_BASE), diagramEtag(changed, URL_BASE), 'the changed fields digested afresh');
  }
  assert.equal(reads.get(d, 'https://other.example'), undefined, 'another public URL is another editor link');
});

test('prepared answers are bounded in bytes, one per diagram, the least recently used going first; one over a quarter of the bound is not kept', () => {
  const reads = new PreparedReads(1000);
  const body = (size: number) => `"${'x'.repeat(size - 2)}"`;
  reads.set(meta('a'), URL_BASE, body(240));
  reads.set(meta('b'), URL_BASE, body(240));
  reads.set(meta('c'), URL_BASE, body(240));
  assert.ok(reads.get(meta('a'), URL_BASE), 'a used: now the most recent');
  // A newer revision of b replaces its entry rather than adding one.
  reads.set(meta('b', { docUpdatedAt: '2026-12-03T00:00:00.000Z' }), URL_BASE, body(240));
  reads.set(meta('d'), URL_BASE, body(240));
  reads.set(meta('e'), URL_BASE, body(240));
  const held = ['a', 'c', 'd', 'e'].filter((id) => reads.get(meta(id), URL_BASE) !== undefined);
  assert.deepEqual(held, ['a', 'd', 'e'], 'c, the least recently used, went first');
  assert.ok(reads.get(meta('b', { docUpdatedAt: '2026-12-03T00:00:00.000Z' }), URL_BASE));
  const big = reads.set(meta('f'), URL_BASE, body(300));
  assert.equal(big.body.length, 300, 'still answered');
  assert.equal(reads.get(meta('f'), URL_BASE), undefined, 'but not kept');
});
