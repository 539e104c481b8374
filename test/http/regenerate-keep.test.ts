/**
 * Regenerate with layout "keep" on both engines: a person's arrangement
 * survives an agent's regenerate (moved nodes stay where they were left, a
 * resized container keeps its size, new nodes are placed clear of everything,
 * gone ones leave with their arrows, lint stays clean); the default keeps once
 * the diagram was changed in place and lays out afresh before; exporting a
 * diagram and regenerating with that text moves nothing; a new container lays
 * out afresh; a scene takes no layout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

type Element = { id: string; type: string; x: number; y: number; width: number; height: number; version: number; isDeleted?: boolean; containerId?: string | null; startBinding?: { elementId: string } | null; endBinding?: { elementId: string } | null };

const V1 = {
  nodes: [
    { id: 'web', label: 'Web' },
    { id: 'backend', label: 'Backend' },
    { id: 'api', label: 'API', parent: 'backend' },
    { id: 'worker', label: 'Worker', parent: 'backend' },
    { id: 'db', label: 'DB', shape: 'cylinder' },
    { id: 'legacy', label: 'Legacy job' },
  ],
  edges: ['web -> api', 'api -> worker', 'api -> db', 'worker -> db', 'legacy -> db'],
};
// One node added (a cache, into the backend container), one removed (legacy), one relabelled (web).
const V2 = {
  nodes: [
    { id: 'web', label: 'Web app' },
    { id: 'backend', label: 'Backend' },
    { id: 'api', label: 'API', parent: 'backend' },
    { id: 'worker', label: 'Worker', parent: 'backend' },
    { id: 'db', label: 'DB', shape: 'cylinder' },
    { id: 'cache', label: 'Cache', parent: 'backend' },
  ],
  edges: ['web -> api', 'api -> worker', 'api -> db', 'worker -> db', 'api -> cache : reads'],
};

const overlaps = (a: Element, b: Element) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`regenerate keeping the arrangement on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: Harness;
    let alice: TestUser;
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user({ quota: 100 });
    });
    after(() => h.close());

    const create = async (body: unknown) => {
      const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const elementsOf = async (id: string): Promise<Element[]> => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().scene.elements;
    const byId = (elements: Element[]) => new Map(elements.filter((e) => !e.isDeleted).map((e) => [e.id, e]));
    const patch = async (id: string, ops: unknown[]) => assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops } })).statusCode, 200);
    const regenerate = (id: string, body: unknown) => h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: alice.token, body });

    test('the nodes a person moved stay where they left them, the container they resized keeps its size; the new node is placed clear of everything, the gone one leaves with its arrow', async () => {
      const id = await create({ spec: V1 });
      const drawn = byId(await elementsOf(id));
      await patch(id, [
        { op: 'move', id: 'web', dx: -120, dy: 0 },
        { op: 'move', id: 'db', dx: 260, dy: 60 },
        { op: 'move', id: 'worker', dx: 0, dy: 30 },
        { op: 'resize', id: 'backend', width: drawn.get('backend')!.width + 200, height: drawn.get('backend')!.height + 80 },
      ]);
      const arranged = byId(await elementsOf(id));
      const res = await regenerate(id, { spec: V2 });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.layout, 'keep', 'changed in place since it was laid out: kept by default');
      assert.deepEqual([body.kept, body.placed, body.removed], [['web', 'backend', 'api', 'worker', 'db'], ['cache'], ['legacy']]);

      const after = byId(await elementsOf(id));
      for (const node of ['web', 'db', 'worker', 'api', 'db-outline']) {
        const [was, now] = [arranged.get(node)!, after.get(node)!];
        assert.deepEqual([now.x, now.y, now.width, now.height], [was.x, was.y, was.width, was.height], `${node} stays where the person left it`);
      }
      const container = after.get('backend')!;
      assert.ok(container.width >= arranged.get('backend')!.width && container.height >= arranged.get('backend')!.height, 'the resized container keeps at least its size');
      assert.equal(after.get('web-label') && (after.get('web-label') as unknown as { text: string }).text, 'Web app', 'relabelled in place');
      for (const gone of ['legacy', 'legacy-label', 'legacy-to-db']) assert.equal(after.get(gone), undefined, `${gone} is gone`);
      const cache = after.get('cache')!;
      assert.ok(cache.x >= container.x && cache.y >= container.y && cache.x + cache.width <= container.x + container.width && cache.y + cache.height <= container.y + container.height, 'the new node is inside its container');
      for (const other of after.values()) {
        if (['rectangle', 'ellipse', 'diamond'].includes(other.type) && other.id !== 'cache' && other.id !== 'backend') assert.ok(!overlaps(cache, other), `cache overlaps ${other.id}`);
      }
      const reads = [...after.values()].find((e) => e.type === 'arrow' && e.startBinding?.elementId === 'api' && e.endBinding?.elementId === 'cache');
      assert.ok(reads, 'the new edge is an arrow bound at both ends');
      const kept = [...arranged.values()].filter((e) => e.type === 'arrow' && e.id !== 'legacy-to-db');
      for (const arrow of kept) assert.deepEqual(after.get(arrow.id), arrow, `${arrow.id} keeps its route`);
      const lint = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
      assert.deepEqual(lint.issues.filter((i: { kind: string }) => ['edge_through_shape', 'overlap', 'label_overlap'].includes(i.kind)), [], JSON.stringify(lint.issues));
    });

    test('before any change in place a regenerate lays out afresh; keep and fresh can be asked for', async () => {
      const id = await create({ spec: V1 });
      assert.equal((await regenerate(id, { spec: V2 })).json().layout, 'fresh');
      const kept = (await regenerate(id, { spec: V1, layout: 'keep' })).json();
      assert.equal(kept.layout, 'keep');
      assert.deepEqual(kept.placed, ['legacy']);
      assert.equal((await regenerate(id, { spec: V1 })).json().layout, 'keep', 'a regenerate that kept is an arrangement to keep');
      assert.equal((await regenerate(id, { spec: V1, layout: 'fresh' })).json().layout, 'fresh');
    });

    test('a diagram exported and regenerated with that text moves nothing and re-creates nothing', async () => {
      const id = await create({ source: { language: 'mermaid', text: 'flowchart LR\n  subgraph shop [Shop]\n    web[Web app] -->|HTTPS| api(Orders API)\n  end\n  api --> db[(Orders DB)]\n  api -.-> audit{{Audit}}\n' } });
      await patch(id, [{ op: 'move', id: 'audit', dx: 40, dy: 120 }]);
      const before = await elementsOf(id);
      for (const language of ['mermaid', 'dot', 'spec'] as const) {
        const { text } = (await h.call('GET', `/api/v1/diagrams/${id}/source?language=${language}`, { token: alice.token })).json();
        const res = await regenerate(id, language === 'spec' ? { spec: JSON.parse(text) } : { source: { language, text } });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual([res.json().placed, res.json().removed], [[], []], language);
        assert.deepEqual(await elementsOf(id), before, `${language}: every element as it was, versions included`);
      }
    });

    test('a changed caption is rewritten in place, a dropped one removed, and one where there was none drawn above what is kept', async () => {
      const id = await create({ spec: { ...V1, caption: 'Checkout' } });
      await patch(id, [{ op: 'move', id: 'web', dx: -50, dy: 0 }]);
      const renamed = await regenerate(id, { spec: { ...V1, caption: 'Checkout, v2' } });
      assert.equal(renamed.json().layout, 'keep');
      const caption = byId(await elementsOf(id)).get('diagram-caption') as unknown as { text: string; originalText: string };
      assert.deepEqual([caption.text, caption.originalText], ['Checkout, v2', 'Checkout, v2']);
      assert.equal((await regenerate(id, { spec: V1 })).json().layout, 'keep');
      assert.equal(byId(await elementsOf(id)).get('diagram-caption'), undefined, 'the dropped caption is gone');
      const back = await regenerate(id, { spec: { ...V1, caption: 'Back' }, layout: 'keep' });
      assert.equal(back.json().layout, 'keep', 'a caption where there was none is drawn over what is kept');
      const elements = byId(await elementsOf(id));
      const drawn = elements.get('diagram-caption')! as unknown as Element & { text: string };
      assert.equal(drawn.text, 'Back');
      const top = Math.min(...[...elements.values()].filter((e) => e.id !== 'diagram-caption').map((e) => e.y));
      assert.ok(drawn.y + drawn.height < top, 'the new caption sits above the drawing');
    });

    test('a new container with new nodes in it is laid out with them and placed as one block, the rest kept; an old node moved into a new container is drawn again in it; a node given a member becomes a container; a scene takes no layout', async () => {
      const id = await create({ spec: V1 });
      await patch(id, [{ op: 'move', id: 'web', dx: -50, dy: 0 }]);
      const arranged = byId(await elementsOf(id));
      const res = await regenerate(id, { spec: { ...V1, nodes: [...V1.nodes, { id: 'ops', label: 'Ops' }, { id: 'pager', label: 'Pager', parent: 'ops' }, { id: 'oncall', label: 'On call', parent: 'ops' }], edges: [...V1.edges, 'pager -> oncall', 'worker -> pager : alerts'] } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().layout, 'keep');
      assert.deepEqual([...res.json().placed].sort(), ['oncall', 'ops', 'pager']);
      const after = byId(await elementsOf(id));
      for (const node of ['web', 'api', 'worker', 'db', 'legacy', 'backend']) {
        const [was, now] = [arranged.get(node)!, after.get(node)!];
        assert.deepEqual([now.x, now.y, now.width, now.height], [was.x, was.y, was.width, was.height], `${node} stays`);
      }
      const ops = after.get('ops')!;
      for (const member of ['pager', 'oncall']) {
        const m = after.get(member)!;
        assert.ok(m.x > ops.x && m.y > ops.y && m.x + m.width < ops.x + ops.width && m.y + m.height < ops.y + ops.height, `${member} is inside the new container`);
      }
      for (const other of arranged.values()) {
        if (['rectangle', 'ellipse', 'diamond'].includes(other.type)) assert.ok(!overlaps(ops, other), `the new container overlaps ${other.id}`);
      }
      assert.ok([...after.values()].some((e) => e.type === 'arrow' && e.startBinding?.elementId === 'worker' && e.endBinding?.elementId === 'pager'), 'the edge into the block is drawn');
      const lint = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
      assert.deepEqual(lint.issues.filter((i: { kind: string }) => ['edge_through_shape', 'overlap', 'label_overlap'].includes(i.kind)), [], JSON.stringify(lint.issues));

      // An old node moved into a new container is drawn again in it; a new container inside one the diagram has grows it.
      const regrouped = await regenerate(id, {
        spec: { ...V1, nodes: [...V1.nodes.map((n) => (n.id === 'web' ? { ...n, parent: 'edge' } : n)), { id: 'edge', label: 'Edge' }, { id: 'jobs', label: 'Jobs', parent: 'backend' }, { id: 'cron', label: 'Cron', parent: 'jobs' }], edges: [...V1.edges, 'worker -> cron'] },
      });
      assert.equal(regrouped.statusCode, 200, regrouped.body);
      assert.equal(regrouped.json().layout, 'keep');
      assert.deepEqual([...regrouped.json().placed].sort(), ['cron', 'edge', 'jobs', 'web']);
      const grouped = byId(await elementsOf(id));
      const [edge, web, backend, jobs] = ['edge', 'web', 'backend', 'jobs'].map((k) => grouped.get(k)!);
      assert.ok(web!.x > edge!.x && web!.y > edge!.y && web!.x + web!.width < edge!.x + edge!.width, 'web is in its new container');
      assert.ok(jobs!.x > backend!.x && jobs!.y > backend!.y && jobs!.x + jobs!.width < backend!.x + backend!.width && jobs!.y + jobs!.height < backend!.y + backend!.height, 'the new container is inside backend, which grew to hold it');
      for (const node of ['api', 'worker', 'db']) assert.deepEqual([grouped.get(node)!.x, grouped.get(node)!.y], [after.get(node)!.x, after.get(node)!.y], `${node} stays`);
      const lint2 = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
      assert.deepEqual(lint2.issues.filter((i: { kind: string }) => ['edge_through_shape', 'overlap', 'label_overlap'].includes(i.kind)), [], JSON.stringify(lint2.issues));
      // A plain node given a member becomes a container, drawn again with it where it was when it fits there.
      const legacyBefore = byId(await elementsOf(id)).get('legacy')!;
      const holding = await regenerate(id, { spec: { ...V1, nodes: [...V1.nodes, { id: 'step', label: 'Step', parent: 'legacy' }] } });
      assert.equal(holding.statusCode, 200, holding.body);
      assert.equal(holding.json().layout, 'keep');
      assert.deepEqual([...holding.json().placed].sort(), ['legacy', 'step', 'web'], 'web leaves the Edge group, which is gone');
      const held = byId(await elementsOf(id));
      const [legacy, step] = [held.get('legacy')!, held.get('step')!];
      assert.ok(step.x > legacy.x && step.y > legacy.y && step.x + step.width < legacy.x + legacy.width && step.y + step.height < legacy.y + legacy.height, 'the member is inside');
      assert.ok(legacyBefore.width < legacy.width && legacyBefore.height < legacy.height, 'it grew into a container');
      const lint3 = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
      assert.deepEqual(lint3.issues.filter((i: { kind: string }) => ['edge_through_shape', 'overlap', 'label_overlap'].includes(i.kind)), [], JSON.stringify(lint3.issues));
      const scene = await regenerate(id, { scene: { elements: [] }, layout: 'keep' });
      assert.equal(scene.statusCode, 400);
      assert.match(scene.json().message, /"layout" applies to a spec or a source/);
    });
  });
}
