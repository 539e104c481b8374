/**
 * What runs in the scene workers: large validations (scenes written whole among them), spec checks, history
 * diffs, and the change a patch records, each answering exactly as the same
 * work done on the event loop would. The use cases run over a real pool of
 * scene-worker processes, with the jobs it is given recorded; small inputs
 * stay on the event loop (no job).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Caller, ServiceDeps } from '../../src/app/deps.ts';
import { contentFromScene, contentFromSpec } from '../../src/app/diagrams/content.ts';
import type { SceneElement } from '../../src/domain/edit/types.ts';
import { patchDiagram } from '../../src/app/diagrams/patch-diagram.ts';
import { DIFFED_HERE_MAX_CHARS, diffRevisions } from '../../src/app/history/diff-revisions.ts';
import { CHECKED_HERE_MAX_ENTRIES } from '../../src/app/diagrams/content.ts';
import { validateContent } from '../../src/app/specs/validate-content.ts';
import { type ContentKind, contentProblems } from '../../src/domain/content-problems.ts';
import { sceneDelta } from '../../src/domain/history/delta.ts';
import { describeDelta } from '../../src/domain/history/describe.ts';
import { problemError } from '../../src/domain/problems.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { ApiError } from '../../src/errors.ts';
import { CreateDiagramBody } from '../../src/api/schemas.ts';
import { parseWith } from '../../src/edge/validate.ts';
import { WorkerPool } from '../../src/workers/pool.ts';
import type { SceneJob, SceneOutput } from '../../src/workers/scene-worker.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';

let h: Harness;
let pool: WorkerPool<SceneJob, SceneOutput>;
let deps: ServiceDeps;
let caller: Caller;
/** The tasks the scene workers were given, in order. */
const tasks: string[] = [];

describe('http/scene-jobs', () => {
  before(async () => {
    h = await startHarness();
    pool = new WorkerPool(new URL('../../src/workers/scene-worker.ts', import.meta.url), { size: 1, timeoutMs: 30_000, kind: 'process' });
    deps = { config: h.config, store: h.store, now: () => new Date(), scenes: { run: (job: SceneJob) => (tasks.push(job.task), pool.run(job)) } } as unknown as ServiceDeps;
    caller = { user: (await h.store.accounts.findById((await h.user()).id))! };
  });
  after(async () => {
    await pool.close();
    await h.close();
  });

  /** What `work` gave the scene workers. */
  async function jobsOf<T>(work: () => Promise<T>): Promise<{ result: T; jobs: string[] }> {
    const from = tasks.length;
    const result = await work();
    return { result, jobs: tasks.slice(from) };
  }

  const nodes = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `v${i}`, label: `Service ${i}` }));
  /** A spec of `count` nodes with a mistake or two in every hundred: an unknown shape, an edge to a node that is not there. */
  const flawedSpec = (count: number) => ({
    nodes: nodes(count).map((node, i) => (i % 100 === 7 ? { ...node, shape: 'octagon' } : node)),
    edges: nodes(count)
      .slice(1)
      .map((node, i) => (i % 100 === 42 ? `${node.id} -> nowhere${i}` : `v${Math.floor(i / 3)} -> ${node.id}`)),
  });

  test('validation of large content runs in a worker and lists the problems it would list on the event loop; small content is checked here', async () => {
    const large: Array<[ContentKind, unknown]> = [
      ['spec', flawedSpec(1000)],
      ['ops', Array.from({ length: 300 }, (_, i) => (i % 50 === 3 ? { op: 'spin', id: `a${i}` } : { op: 'move', id: `a${i}`, dx: 1, dy: 0 }))],
      ['scene', { elements: Array.from({ length: 200 }, (_, i) => ({ id: i === 150 ? 'r1' : `r${i}`, type: 'rectangle', x: i, y: 0, width: 10, height: 10 })) }],
      ['edit', { addNodes: nodes(80).map((node, i) => (i === 60 ? { ...node, shape: 'octagon' } : node)) }],
    ];
    for (const [kind, content] of large) {
      const expected = contentProblems(kind, content, null, { isIcon: isCatalogIcon });
      assert.ok(expected.length > 0, `${kind}: the content has problems to list`);
      const { result, jobs } = await jobsOf(() => validateContent(deps, caller, { [kind]: content }));
      assert.deepEqual(jobs, ['check'], kind);
      assert.deepEqual(result, { valid: false, problems: expected }, kind);
    }
    const small = flawedSpec(CHECKED_HERE_MAX_ENTRIES / 2 - 1);
    const { result, jobs } = await jobsOf(() => validateContent(deps, caller, { spec: { ...small, nodes: [...small.nodes, { id: 'x', shape: 'octagon' }] } }));
    assert.deepEqual(jobs, []);
    assert.equal(result.valid, false);
  });

  test('a scene written whole (create, regenerate, the editor\'s save) is checked in a worker when large: refused as the check refuses it, stored exactly as sent when valid', async () => {
    const scene = { elements: Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, type: 'rectangle', x: i, y: 0, width: 10, height: 10, customData: { n: i } })) };
    const flawed = { elements: scene.elements.map((element, i) => (i === 150 ? { ...element, id: 's1' } : element)) };
    const expected = problemError(contentProblems('scene', flawed, null, { isIcon: isCatalogIcon })[0]!);
    const refused = await jobsOf(() => contentFromScene(deps, flawed, caller).then(() => assert.fail('refused'), (error: unknown) => error as ApiError));
    assert.deepEqual(refused.jobs, ['check']);
    assert.deepEqual([refused.result.code, refused.result.message], [expected.code, expected.message]);
    const stored = await jobsOf(() => contentFromScene(deps, scene, caller));
    assert.deepEqual(stored.jobs, ['check']);
    assert.equal(stored.result.elementsJson, JSON.stringify(scene.elements));
    const small = await jobsOf(() => contentFromScene(deps, { elements: scene.elements.slice(0, CHECKED_HERE_MAX_ENTRIES) }, caller));
    assert.deepEqual(small.jobs, []);
  });

  test('a spec past its schema is checked across its parts in its layout job: a refused one is the error the check gives, a valid one is laid out', async () => {
    // Well formed (the edge's schema has passed it), with edges to nodes that are not there.
    const refused = { ...flawedSpec(1000), nodes: nodes(1000) };
    const expected = (() => {
      try {
        parseSpec(refused, { isIcon: isCatalogIcon });
      } catch (error) {
        return error as ApiError;
      }
      assert.fail('the spec is refused');
    })();
    const { result, jobs } = await jobsOf(() => contentFromSpec(deps, refused, caller).then(() => assert.fail('refused'), (error: unknown) => error));
    assert.deepEqual(jobs, ['generate']);
    assert.ok(result instanceof ApiError);
    assert.deepEqual([result.code, result.message], [expected.code, expected.message]);
    const laidOut = await contentFromSpec(deps, { nodes: nodes(3), edges: ['v0 -> v1', 'v1 -> v2'] }, caller);
    assert.equal(laidOut.elementCount, JSON.parse(laidOut.elementsJson).length);
    assert.ok(laidOut.elementCount >= 5, 'three nodes and two arrows at least');
  });

  test('a history diff of large scenes runs in a worker, snapshots and deltas read there, and answers what it answers on the event loop', async () => {
    const rectangles = (count: number, shift: number) => Array.from({ length: count }, (_, i) => ({ id: `d${i}`, type: 'rectangle', x: i * 20 + shift, y: 0, width: 10, height: 10 }));
    for (const count of [300, 10]) {
      const user = await h.user();
      const owner = { user: (await h.store.accounts.findById(user.id))! };
      const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { scene: { elements: rectangles(count, 0) } } });
      const id = created.json().id;
      // r2 replaces the scene (a snapshot); r3 and r4 are patches (deltas on it).
      const next = [...rectangles(count, 0).slice(2, count - 1).map((e, i) => (i % 2 ? { ...e, x: e.x + 5 } : e)), { id: 'new', type: 'ellipse', x: 0, y: 50, width: 10, height: 10 }];
      assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: user.token, body: { scene: { elements: next } } })).statusCode, 200);
      for (const ops of [[{ op: 'move', id: 'd3', dx: 1, dy: 0 }], [{ op: 'delete', id: 'd4' }]]) {
        assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: user.token, body: { ops } })).statusCode, 200);
      }
      const scenes = new Map<string, SceneElement[]>();
      for (const rev of ['r1', 'r2', 'r3', 'r4']) scenes.set(rev, (await h.call('GET', `/api/v1/diagrams/${id}/revisions/${rev}`, { token: user.token })).json().scene.elements);
      for (const [from, to] of [['r1', 'r2'], ['r1', 'r4'], ['r3', 'r4']] as const) {
        const large = JSON.stringify(scenes.get(from)).length + JSON.stringify(scenes.get(to)).length > DIFFED_HERE_MAX_CHARS;
        assert.equal(large, count === 300);
        // What the diff answered when it was worked out on the event loop.
        const delta = sceneDelta(scenes.get(from)!, scenes.get(to)!);
        const changes = describeDelta(scenes.get(from)!, delta);
        const expected = { from, to, added: changes.added, removed: delta.remove, changed: changes.changed, summary: changes.summary, elements: delta.upsert };
        const { result, jobs } = await jobsOf(() => diffRevisions(deps, owner, id, to, from));
        assert.deepEqual(jobs, large ? ['diff'] : [], `${from}..${to}`);
        assert.equal(result, JSON.stringify(expected), `${from}..${to}`);
        const served = await h.call('GET', `/api/v1/diagrams/${id}/revisions/${to}/diff?against=${from}`, { token: user.token });
        assert.equal(served.body, result);
        assert.equal(served.headers['content-type'], 'application/json; charset=utf-8');
      }
    }
  });

  test('a patch records the change worked out in its worker: the revision reads back as the patched scene, and says what moved', async () => {
    const user = await h.user();
    const owner = { user: (await h.store.accounts.findById(user.id))! };
    const spec = { nodes: [{ id: 'hub' }, ...nodes(40)], edges: nodes(40).map((node) => `hub -> ${node.id}`) };
    const id = (await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { spec } })).json().id;
    const { result, jobs } = await jobsOf(() => patchDiagram(deps, owner, id, [{ op: 'move', id: 'hub', dx: 30, dy: 0 }], null));
    assert.deepEqual(jobs, ['patch']);
    assert.equal(result.applied, 1);
    const current = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: user.token })).json().scene.elements;
    const revisions = (await h.call('GET', `/api/v1/diagrams/${id}/revisions?limit=1`, { token: user.token })).json().items;
    assert.equal(revisions[0].kind, 'patch');
    assert.match(revisions[0].summary, /^moved hub/);
    assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}/revisions/${revisions[0].rev}`, { token: user.token })).json().scene.elements, current);
  });

  test('a write whose large content fails its schema is checked for its first problem in a scene worker, answering as the check on the event loop does', async () => {
    const TOKEN = 'scene-jobs-metrics-token-0123456789';
    const own = await startHarness({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const user = await own.user();
      // The scene workers start with their first job: how many have started tells whether any job was given.
      const sceneWorkers = async () => {
        const text = (await own.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).body;
        return [...text.matchAll(/^drawbridge_worker_pool_workers\{pool="scene",state="\w+"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
      };
      const refused = async (spec: unknown) => {
        const expected = (() => {
          try {
            parseWith(CreateDiagramBody, { spec }, 'body');
          } catch (error) {
            return (error as ApiError).toBody();
          }
          assert.fail('the body is refused');
        })();
        const res = await own.call('POST', '/api/v1/diagrams', { token: user.token, body: { spec } });
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json(), expected);
      };
      await refused(flawedSpec(CHECKED_HERE_MAX_ENTRIES / 2 - 1));
      assert.equal(await sceneWorkers(), 0, 'a small spec is checked on the event loop');
      await refused(flawedSpec(1000));
      assert.ok((await sceneWorkers()) > 0, 'a large spec is checked in a scene worker');
    } finally {
      await own.close();
    }
  });

  test('the operations guide states the sizes from which validation and diffs go to a worker as the code has them', () => {
    const guide = fs.readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    assert.ok(guide.includes(`content with more than ${CHECKED_HERE_MAX_ENTRIES} list entries`));
    assert.ok(guide.includes(`JSON is over ${DIFFED_HERE_MAX_CHARS / 1024} KB together`));
  });
});
