// The words the history panel shows for a revision, and how a refreshed first page joins the list
// already shown (src/web/client/history-api.ts), without a browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeVia, mergeNewest, type RevisionItem, relativeTime } from '../../src/web/client/history-api.ts';

test('how a revision was written reads as the token, the application or the MCP tool that wrote it', () => {
  const token = { id: 't1', name: 'agent-bot' };
  assert.equal(describeVia({ kind: 'token', name: 'agent-bot', token }), "API token 'agent-bot'");
  assert.equal(describeVia({ kind: 'mcp', name: 'patch_diagram', tool: 'patch_diagram', token }), "MCP · patch_diagram (token 'agent-bot')");
  assert.equal(describeVia({ kind: 'mcp', name: 'patch_diagram', tool: 'patch_diagram', client: { id: 'c1', name: 'Claude' } }), "MCP · patch_diagram (OAuth app 'Claude')");
  assert.equal(describeVia({ kind: 'oauth', name: 'Claude', client: { id: 'c1', name: 'Claude' } }), "OAuth app 'Claude'");
  assert.equal(describeVia({ kind: 'web', name: 'web editor' }), 'web editor');
  assert.equal(describeVia(null), '');
});

test('a revision time reads as how long ago, then the date after a week', () => {
  const now = Date.parse('2026-11-24T12:00:00.000Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  assert.equal(relativeTime(ago(10), now), 'just now');
  assert.equal(relativeTime(ago(60), now), '1 minute ago');
  assert.equal(relativeTime(ago(5 * 60), now), '5 minutes ago');
  assert.equal(relativeTime(ago(3 * 3600), now), '3 hours ago');
  assert.equal(relativeTime(ago(86_400), now), 'yesterday');
  assert.equal(relativeTime(ago(3 * 86_400), now), '3 days ago');
  assert.equal(relativeTime('2026-10-01T12:00:00.000Z', now), 'Oct 1, 2026');
});

const item = (rev: string): RevisionItem => ({ rev, at: '2026-11-24T12:00:00.000Z', author: null, via: null, kind: 'edit', elementCount: 0, summary: '', hasScene: true });
const revs = (page: { items: RevisionItem[] }) => page.items.map((i) => i.rev);

test('a refreshed first page adds the newer revisions on top of the list shown and keeps the pages loaded below', () => {
  const shown = { items: [item('r3'), item('r2'), item('r1')], nextCursor: 'c1' };
  const merged = mergeNewest(shown, { items: [item('r5'), item('r4'), item('r3')], nextCursor: 'c3' });
  assert.deepEqual(revs(merged), ['r5', 'r4', 'r3', 'r2', 'r1']);
  assert.equal(merged.nextCursor, 'c1');
});

test('a refreshed first page that does not reach the list shown replaces it', () => {
  const shown = { items: [item('r3')], nextCursor: null };
  const newest = { items: [item('r9'), item('r8')], nextCursor: 'c8' };
  assert.deepEqual(mergeNewest(shown, newest), newest);
});
