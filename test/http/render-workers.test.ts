import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Harness, startHarness } from '../helpers/harness.ts';

/** A render worker killed or hung never takes the API down: the request falls back, a fresh worker serves the next. */
let h: Harness;
let token: string;
let label = 0;

before(async () => {
  // The timeout is what a hung worker costs a request, so it is short; but every render these tests expect to be
  // faithful must finish within it, the first one in a cold worker included, on a machine as loaded as a full run
  // makes it (3 s was not always enough there).
  h = await startHarness({ env: { RENDER_WORKERS: '1', RENDER_TIMEOUT_MS: '10000' } });
  ({ token } = await h.user());
});
after(() => h.close());

/** A diagram never rendered before, so the cache cannot answer for the workers. */
async function freshDiagram(): Promise<string> {
  label += 1;
  const spec = { nodes: [{ id: 'a', label: `Service ${label}` }, { id: 'b', label: 'Store' }], edges: [{ from: 'a', to: 'b' }] };
  const created = await h.call('POST', '/api/v1/diagrams', { token, body: { title: `d${label}`, spec } });
  return created.json().id;
}

async function renderPng(id: string) {
  const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png`, { token });
  assert.equal(response.statusCode, 200, response.body);
  return { quality: response.headers['x-render-quality'], note: response.headers['x-render-note'] };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 10_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a render worker killed between requests: the next request still succeeds, and then a fresh worker renders faithfully', async () => {
  assert.deepEqual(await renderPng(await freshDiagram()), { quality: 'faithful', note: undefined });
  const [pid] = h.app.renderer.faithfulWorkerPids();
  assert.ok(pid);
  process.kill(pid, 'SIGKILL');
  await until(() => !alive(pid), 'the worker to die');
  const next = await renderPng(await freshDiagram());
  assert.ok(next.quality === 'faithful' || next.note === 'faithful_unavailable');
  assert.deepEqual(await renderPng(await freshDiagram()), { quality: 'faithful', note: undefined });
  assert.notEqual(h.app.renderer.faithfulWorkerPids()[0], pid);
});

test('a hung render worker: the request falls back to the fast preview, the worker is replaced, the next render is faithful', async () => {
  assert.equal((await renderPng(await freshDiagram())).quality, 'faithful');
  const [pid] = h.app.renderer.faithfulWorkerPids();
  assert.ok(pid);
  process.kill(pid, 'SIGSTOP');
  try {
    assert.deepEqual(await renderPng(await freshDiagram()), { quality: 'fast', note: 'faithful_unavailable' });
    await until(() => !alive(pid), 'the hung worker to be killed');
    assert.deepEqual(await renderPng(await freshDiagram()), { quality: 'faithful', note: undefined });
  } finally {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

test('the API keeps answering while a render worker hangs', async () => {
  await renderPng(await freshDiagram());
  const [pid] = h.app.renderer.faithfulWorkerPids();
  process.kill(pid!, 'SIGSTOP');
  try {
    const render = h.call('GET', `/api/v1/diagrams/${await freshDiagram()}/render?format=png`, { token });
    const me = await h.call('GET', '/api/v1/me', { token });
    assert.equal(me.statusCode, 200);
    assert.equal((await render).headers['x-render-note'], 'faithful_unavailable');
  } finally {
    if (alive(pid!)) process.kill(pid!, 'SIGKILL');
  }
});

test('an unchanged scene is served from the cache, byte for byte, even with no render worker answering; an edit misses', async () => {
  const id = await freshDiagram();
  const first = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg`, { token });
  assert.equal(first.headers['x-render-quality'], 'faithful');
  const [pid] = h.app.renderer.faithfulWorkerPids();
  process.kill(pid!, 'SIGSTOP');
  try {
    const again = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg`, { token });
    assert.equal(again.headers['x-render-quality'], 'faithful');
    assert.equal(again.body, first.body);
  } finally {
    process.kill(pid!, 'SIGCONT');
  }
  const patched = await h.call('POST', `/api/v1/diagrams/${id}/patch`, {
    token,
    body: { ops: [{ op: 'restyle', id: 'a', strokeColor: '#e03131' }] },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  const edited = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg`, { token });
  assert.equal(edited.headers['x-render-quality'], 'faithful');
  assert.notEqual(edited.body, first.body);
  assert.match(edited.body, /#e03131/);
});

/** Starts a service with these settings and no faithful renderer, runs `use` on it, and closes it. */
async function withFastOnly(env: Record<string, string>, use: (other: Harness, otherToken: string) => Promise<void>): Promise<void> {
  const other = await startHarness({ env: { RENDER_FAITHFUL: 'off', ...env } });
  try {
    await use(other, (await other.user()).token);
  } finally {
    await other.close();
  }
}

test('FAST_WORKERS sets how many fast render worker processes the renderer starts (2 unless set)', async () => {
  for (const [env, expected] of [[{}, 2], [{ FAST_WORKERS: '3' }, 3]] as const) {
    await withFastOnly(env, async (other) => {
      assert.deepEqual(other.app.renderer.fastWorkerPids(), [], 'none before the first render or warm-up');
      other.app.renderer.warm();
      const pids = other.app.renderer.fastWorkerPids();
      assert.equal(new Set(pids).size, expected, JSON.stringify(env));
      assert.ok(pids.every(alive), 'each is a live process');
    });
  }
});

test('with FAST_WORKERS=1 a burst of fast renders is served by one worker process', async () => {
  await withFastOnly({ FAST_WORKERS: '1' }, async (other, otherToken) => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const spec = { nodes: [{ id: 'a', label: `Burst ${i}` }, { id: 'b', label: 'Store' }], edges: [{ from: 'a', to: 'b' }] };
      ids.push((await other.call('POST', '/api/v1/diagrams', { token: otherToken, body: { title: `burst ${i}`, spec } })).json().id);
    }
    const renders = await Promise.all(ids.map((id) => other.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=fast`, { token: otherToken })));
    for (const render of renders) {
      assert.equal(render.statusCode, 200, render.body);
      assert.equal(render.headers['x-render-quality'], 'fast');
    }
    assert.equal(other.app.renderer.fastWorkerPids().length, 1);
  });
});
