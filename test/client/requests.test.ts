import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DrawbridgeClient } from '../../src/client/client.ts';

// What the client puts on the wire, seen by a fetch that records each request
// and answers from a table: no server needed.

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

function recordingFetch(answer: (sent: Sent) => Response = () => Response.json({})): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fake = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const request = {
      method: init.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init.headers)),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    return answer(request);
  }) as typeof fetch;
  return { fetch: fake, sent };
}

const ID = '5f0c6f1e-8a4b-4c1d-9e2f-3a7b6c5d4e10';

describe('withHeaders', () => {
  test('the scoped client sends its headers on every request; the client it came from does not', async () => {
    const { fetch, sent } = recordingFetch();
    const base = new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch });
    const scoped = base.withHeaders({ 'Drawbridge-Mcp-Tool': 'patch_elements' });
    await scoped.getDiagram(ID);
    await scoped.patchDiagram(ID, { ops: [] });
    await base.getDiagram(ID);
    assert.deepEqual(
      sent.map((s) => [s.method, s.headers['drawbridge-mcp-tool'] ?? null]),
      [
        ['GET', 'patch_elements'],
        ['POST', 'patch_elements'],
        ['GET', null],
      ],
    );
    assert.ok(sent.every((s) => s.headers.authorization === 'Bearer tok'));
  });

  test('scopes stack, a later value wins, and the client\'s own headers cannot be replaced', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch, headers: { 'x-one': '1' } })
      .withHeaders({ 'x-two': '2', Authorization: 'Bearer stolen', Accept: 'text/plain' })
      .withHeaders({ 'X-Two': 'two' });
    await client.me();
    const { headers } = sent[0]!;
    assert.equal(headers['x-one'], '1');
    assert.equal(headers['x-two'], 'two');
    assert.equal(headers.authorization, 'Bearer tok');
    assert.equal(headers.accept, 'application/json');
  });
});

describe('history requests', () => {
  test('list, page through, read, diff and restore revisions at the documented paths', async () => {
    const pages: Record<string, { items: Array<{ rev: string }>; nextCursor: string | null }> = {
      '': { items: [{ rev: 'r3' }, { rev: 'r2' }], nextCursor: 'c1' },
      c1: { items: [{ rev: 'r1' }], nextCursor: null },
    };
    const { fetch, sent } = recordingFetch((s) => {
      const url = new URL(s.url, 'http://api.test');
      if (url.pathname.endsWith('/revisions')) return Response.json(pages[url.searchParams.get('cursor') ?? '']);
      return Response.json({});
    });
    const client = new DrawbridgeClient({ apiUrl: 'http://api.test/', token: 'tok', fetch });
    await client.listRevisions(ID);
    await client.listRevisions(ID, { cursor: 'c1', limit: 10 });
    const revs: string[] = [];
    const fetched: number[] = [];
    for await (const item of client.allRevisions(ID, { pageSize: 2, onPage: (n) => fetched.push(n) })) revs.push(item.rev);
    assert.deepEqual(revs, ['r3', 'r2', 'r1']);
    assert.deepEqual(fetched, [2, 3]);
    await client.getRevision(ID, 'r2');
    await client.diffRevisions(ID, 'r3');
    await client.diffRevisions(ID, 'r3', 'r1');
    await client.restoreRevision(ID, 'r1');
    await client.restoreRevision(ID, 'r1', { expectedUpdatedAt: '2026-05-04T10:21:07.512Z' });
    await client.renderDiagram(ID, { rev: 'r2' });
    assert.deepEqual(
      sent.map((s) => `${s.method} ${s.url}${s.body === undefined ? '' : ` ${JSON.stringify(s.body)}`}`),
      [
        `GET /api/v1/diagrams/${ID}/revisions`,
        `GET /api/v1/diagrams/${ID}/revisions?cursor=c1&limit=10`,
        `GET /api/v1/diagrams/${ID}/revisions?limit=2`,
        `GET /api/v1/diagrams/${ID}/revisions?cursor=c1&limit=2`,
        `GET /api/v1/diagrams/${ID}/revisions/r2`,
        `GET /api/v1/diagrams/${ID}/revisions/r3/diff`,
        `GET /api/v1/diagrams/${ID}/revisions/r3/diff?against=r1`,
        `POST /api/v1/diagrams/${ID}/revisions/r1/restore {}`,
        `POST /api/v1/diagrams/${ID}/revisions/r1/restore {"expectedUpdatedAt":"2026-05-04T10:21:07.512Z"}`,
        `GET /api/v1/diagrams/${ID}/render?format=json&rev=r2`,
      ],
    );
  });

  test('a revision id is one path segment: it is escaped, and an empty one is not_found without a request', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch });
    await client.getRevision(ID, 'r1/../../x');
    assert.equal(sent[0]!.url, `/api/v1/diagrams/${ID}/revisions/r1%2F..%2F..%2Fx`);
    await assert.rejects(client.getRevision(ID, ''), { code: 'not_found', status: 404 });
    await assert.rejects(client.restoreRevision(ID, '..'), { code: 'not_found', status: 404 });
    assert.equal(sent.length, 1);
  });
});
