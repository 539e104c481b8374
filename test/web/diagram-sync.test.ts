// The editor's sync with the server (src/web/client/diagram-sync.ts), driven without a browser: a
// fake editor and a fetch that answers like the web app's JSON endpoints.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagramSync, type EditorHandle, type SaveState } from '../../src/web/client/diagram-sync.ts';

const at = (second: number) => `2026-11-24T10:00:${String(second).padStart(2, '0')}.000Z`;

/** An editor whose content version the test moves, and a server whose revision each save moves on. */
function setup() {
  let version = 1;
  let revision = 0;
  const requests: string[] = [];
  const states: SaveState['kind'][] = [];
  const editor: EditorHandle = { contentVersion: () => version, elementsToSave: () => [], replaceElements: () => {} };
  const fetch = (async (url: string, init: RequestInit = {}) => {
    // Like the network, an answer comes in a later turn of the event loop (a runaway loop of requests cannot starve the timers).
    await new Promise((resolve) => setImmediate(resolve));
    const method = init.method ?? 'GET';
    requests.push(`${method} ${url}`);
    if (method === 'PUT') {
      revision += 1;
      return new Response(JSON.stringify({ docUpdatedAt: at(revision) }), { status: 200 });
    }
    return new Response(JSON.stringify({ id: 'd', title: 't', docUpdatedAt: at(revision), scene: { elements: [] } }), { status: 200 });
  }) as typeof globalThis.fetch;
  const sync = new DiagramSync({ diagramId: 'd', csrfToken: 'c', debounceMs: 1, onState: (s) => states.push(s.kind), fetch }, { id: 'd', title: 't', docUpdatedAt: at(0), scene: { elements: [] } });
  sync.changed(editor);
  return {
    sync,
    requests,
    states,
    /** Someone else wrote revision `n` and the stream says so. */
    announceWrite(n: number) {
      revision = n;
      sync.revision(at(n));
    },
    async edit() {
      version += 1;
      sync.changed(editor);
      await settle();
    },
    /** A change in the editor, not yet saved. */
    localChange() {
      version += 1;
      sync.changed(editor);
    },
    /** Someone else wrote revision `n`, not announced yet. */
    serverWrote(n: number) {
      revision = n;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test("a late announcement of one of the editor's own earlier saves neither reloads nor unsettles 'Saved'", async () => {
  const s = setup();
  await s.edit(); // saved as revision 1
  await s.edit(); // saved as revision 2
  assert.deepEqual(s.requests, ['PUT /app/api/diagrams/d/scene', 'PUT /app/api/diagrams/d/scene']);
  // The stream's poll read the diagram between the two saves and answers only now.
  s.sync.revision(at(1));
  await settle();
  // Before, it reloaded, and reloaded again for ever: the announced revision never matched the one the reload brought.
  assert.equal(s.requests.length, 2, `nothing fetched: ${s.requests.slice(0, 5).join(', ')}…`);
  assert.equal(s.states.at(-1), 'saved');
});

test('an announcement newer than what the editor shows reloads it', async () => {
  const s = setup();
  await s.edit();
  s.announceWrite(5);
  await settle();
  assert.equal(s.requests.at(-1), 'GET /app/api/diagrams/d');
  assert.equal(s.states.at(-1), 'reloaded');
});

test('the announcement of the revision the editor already shows does nothing', async () => {
  const s = setup();
  s.sync.revision(at(0));
  await s.edit();
  s.sync.revision(at(1));
  await settle();
  assert.deepEqual(s.requests, ['PUT /app/api/diagrams/d/scene']);
  assert.equal(s.states.at(-1), 'saved');
});

test("showing the server's version on request (after a restore) drops an unsaved local change without calling it a conflict", async () => {
  const s = setup();
  await s.edit();
  s.localChange();
  s.serverWrote(5);
  await s.sync.showLatest({ kind: 'restored' });
  await settle();
  assert.deepEqual(s.requests, ['PUT /app/api/diagrams/d/scene', 'GET /app/api/diagrams/d'], 'the local change was not saved over the restore');
  assert.equal(s.states.at(-1), 'restored');
  assert.equal(s.sync.basedOn(), at(5));
  assert.equal(s.sync.hasUnsavedWork(), false);
});
