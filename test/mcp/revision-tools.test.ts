import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';

// What list_revisions, diff_revisions and restore_revision make of the API's
// answers, given answers from a table (no server): the agent gets compact
// items, the elements of a diff only when it asks, and a restore on a server
// that records no history still answers.

const ID = '5f0c6f1e-8a4b-4c1d-9e2f-3a7b6c5d4e10';
const AT = '2026-05-04T10:21:07.512Z';

const ANSWERS: Record<string, unknown> = {
  [`GET /api/v1/diagrams/${ID}/revisions`]: {
    items: [
      {
        rev: 'r3',
        at: AT,
        author: { id: 'u1', email: 'ana@example.com' },
        via: { kind: 'mcp', name: 'restore_revision', tool: 'restore_revision', token: { id: 't1', name: 'agent-bot' } },
        kind: 'restore',
        elementCount: 5,
        summary: 'restored r1: added Orders DB',
        hasScene: true,
        restoredFrom: 'r1',
      },
      { rev: 'r2', at: AT, author: { id: 'u1', email: 'ana@example.com' }, via: { kind: 'oauth', name: 'Claude', client: { id: 'c1', name: 'Claude' } }, kind: 'rename', elementCount: 3, summary: 'renamed "A" to "B"', hasScene: false },
      { rev: 'r1', at: AT, author: null, via: null, kind: 'baseline', elementCount: 3, summary: 'created with 3 elements', hasScene: true },
    ],
    nextCursor: 'c2',
  },
  [`GET /api/v1/diagrams/${ID}/revisions/r3/diff`]: {
    from: 'r2',
    to: 'r3',
    added: ['db'],
    removed: [],
    changed: [{ id: 'api', aspects: ['geometry'] }],
    summary: 'added Orders DB, moved Orders API',
    elements: [{ id: 'db', type: 'rectangle' }, { id: 'api', type: 'rectangle' }],
    order: ['db', 'api'],
  },
  [`POST /api/v1/diagrams/${ID}/revisions/r1/restore`]: { id: ID, rev: null, restoredFrom: 'r1', docUpdatedAt: AT, elements: 3, unresolvedComments: 0 },
};

let client: Client;
describe('mcp/revision-tools', () => {
  before(async () => {
    const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const answer = ANSWERS[`${init.method ?? 'GET'} ${url.pathname}`];
      return answer === undefined ? Response.json({ error: 'not_found', message: 'no such thing' }, { status: 404 }) : Response.json(answer);
    }) as typeof globalThis.fetch;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch }), { authHelp: 'unused', appUrl: 'http://app.test' }).connect(serverSide);
    client = new Client({ name: 'revision-tools-test', version: '0.0.0' });
    await client.connect(clientSide);
  });
  after(() => client.close());

  type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };

  async function call(name: string, args: Record<string, unknown>): Promise<any> {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
    const value = JSON.parse(result.content[0]!.text!);
    assert.deepEqual(result.structuredContent, value, `${name}: structuredContent is the same value`);
    return value;
  }

  test('list_revisions answers each revision by email and by how it came, named, without ids', async () => {
    assert.deepEqual(await call('list_revisions', { id: ID }), {
      id: ID,
      editorUrl: `http://app.test/app/d/${ID}`,
      items: [
        {
          rev: 'r3',
          at: AT,
          author: 'ana@example.com',
          via: { kind: 'mcp', name: 'restore_revision', token: 'agent-bot' },
          kind: 'restore',
          summary: 'restored r1: added Orders DB',
          elementCount: 5,
          restoredFrom: 'r1',
        },
        { rev: 'r2', at: AT, author: 'ana@example.com', via: { kind: 'oauth', name: 'Claude', client: 'Claude' }, kind: 'rename', summary: 'renamed "A" to "B"', elementCount: 3 },
        { rev: 'r1', at: AT, author: null, via: null, kind: 'baseline', summary: 'created with 3 elements', elementCount: 3 },
      ],
      nextCursor: 'c2',
    });
  });

  test('diff_revisions answers the summary and the ids; the elements (and order) only with includeElements', async () => {
    const ids = { from: 'r2', to: 'r3', added: ['db'], removed: [], changed: [{ id: 'api', aspects: ['geometry'] }], summary: 'added Orders DB, moved Orders API' };
    assert.deepEqual(await call('diff_revisions', { id: ID, rev: 'r3' }), { id: ID, editorUrl: `http://app.test/app/d/${ID}`, ...ids });
    const full = await call('diff_revisions', { id: ID, rev: 'r3', includeElements: true });
    assert.deepEqual(full.elements.map((e: { id: string }) => e.id), ['db', 'api']);
    assert.deepEqual(full.order, ['db', 'api']);
  });

  test('restore_revision on a server that records no history answers rev null, as the API does', async () => {
    const restored = await call('restore_revision', { id: ID, rev: 'r1' });
    assert.equal(restored.rev, null);
    assert.equal(restored.restoredFrom, 'r1');
    assert.equal(restored.editorUrl, `http://app.test/app/d/${ID}`);
  });
});
