/**
 * The rules a person judges a generated diagram by, each on a small crafted
 * spec: the author's flow, labels with room on their arrows, edges between
 * containers that cross only borders and never a container's label.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { CONTAINER_PADDING } from '../../src/domain/layout/containers/containers.ts';
import { headerAlign } from '../../src/domain/layout/containers/headers.ts';
import { lengthenHeadLegs } from '../../src/domain/layout/routing/head-legs.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { countEdgeCrossings } from '../../src/domain/layout/metrics.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { BINDING_GAP } from '../../src/domain/scene/elements.ts';
import { INSIDE_DEPTH, INSIDE_MARGIN } from '../../src/domain/scene/end-labels.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { importDot } from '../../src/domain/source/dot.ts';
import { BOUND_TEXT_PADDING, HEADER_SIDE_INSET } from '../../src/domain/text/metrics.ts';
import { assertSurvivesRestore } from '../helpers/excalidraw.ts';
import { metIssues } from '../helpers/lint.ts';

type Element = Record<string, any>;
const build = (raw: unknown): Element[] => sceneFromSpec(parseSpec(raw, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
const byId = (elements: Element[]) => new Map(elements.map((e) => [e.id as string, e]));
const centreY = (e: Element) => e.y + e.height / 2;
const kinds = (elements: Element[]) => metIssues(lintScene(elements)).map((issue) => issue.kind);

test('a loop points back against the flow and the main path runs with it', () => {
  const elements = byId(
    build({
      nodes: [{ id: 'cart' }, { id: 'addr', label: 'Collect shipping address' }, { id: 'valid', label: 'Address valid?', shape: 'diamond' }, { id: 'fix', label: 'Ask user to fix' }, { id: 'pay' }],
      edges: ['cart -> addr', 'addr -> valid', 'valid -> fix : no', 'fix -> addr', 'valid -> pay : yes'],
    }),
  );
  const order = ['cart', 'addr', 'valid'].map((id) => centreY(elements.get(id)!));
  assert.ok(order[0]! < order[1]! && order[1]! < order[2]!, `cart, addr, valid run down the page: ${order}`);
  assert.ok(centreY(elements.get('fix')!) > centreY(elements.get('valid')!), 'the fix step comes after the decision');
});

test('the flow starts at the first node the author wrote with arrows out and none in, even when its first arrow joins the flow late', () => {
  // Left alone, network simplex would put the receiver beside the processor it feeds, a third of the way down.
  const nodes = [{ id: 'receiver' }, { id: 'processor' }, { id: 'exporter' }, { id: 'sdk' }, { id: 'endpoint' }, { id: 'provider' }];
  const edges = ['receiver -> processor', 'processor -> exporter', 'sdk -> endpoint', 'endpoint -> provider', 'provider -> processor'];
  for (const wrap of [false, true]) {
    const spec = wrap ? { nodes: [{ id: 'collector', label: 'Collector' }, ...nodes.map((n) => ({ ...n, parent: n.id === 'sdk' ? undefined : 'collector' }))], edges } : { nodes, edges };
    const elements = byId(build(spec));
    const top = Math.min(...nodes.map((n) => elements.get(n.id)!.y));
    assert.equal(elements.get('receiver')!.y, top, `${wrap ? 'in a container' : 'flat'}: the receiver is in the first layer`);
    assert.ok(!kinds([...elements.values()]).includes('late_flow_start'));
  }
});

test('the flow starts at the container the author wrote first when its edges lead out: a source further down sits next to what it feeds', () => {
  // greptimedb's table engine: "procedure" was lifted to the very top of Datanode0, 300 px above "table engine" beside it.
  const elements = build({
    nodes: [
      { id: 'table', label: 'MyTable' },
      { id: 'a', label: 'region 0, 2 -> Datanode0', parent: 'table' },
      { id: 'meta', label: 'Metasrv' },
      { id: 'node0', label: 'Datanode0' },
      { id: 'procedure', parent: 'node0' },
      { id: 'engine', label: 'table engine', parent: 'node0' },
      { id: 'mine', label: 'my_table', parent: 'node0' },
    ],
    edges: ['table -> meta', 'table -> engine', 'procedure -> mine', 'engine -> mine'],
  });
  const [procedure, engine] = ['procedure', 'engine'].map((id) => byId(elements).get(id)!);
  assert.equal(centreY(procedure!), centreY(engine!));
});

test('a container\'s sources sit on its first row when nothing else holds it open, and next to what they feed when the container is tall anyway', () => {
  // envoy's AI gateway: "Backend" and "..." sat 300 px below "Gateway", stretching "Envoy Gateway resources" down to them.
  const elements = build({
    nodes: [
      { id: 'resources', label: 'Envoy Gateway resources' },
      ...['gateway', 'backend', 'more'].map((id) => ({ id, parent: 'resources' })),
      { id: 'ai', label: 'AI controller' },
      { id: 'generated', label: 'Generated' },
      { id: 'route', parent: 'generated' },
      { id: 'controller', label: 'Envoy controller' },
      { id: 'tall', label: 'Policy sources' },
      ...['compiler', 'store', 'bundle'].map((id) => ({ id, parent: 'tall' })),
      { id: 'nim', label: 'NIM', parent: 'tall' },
    ],
    edges: ['gateway -> ai', 'ai -> route', 'route -> controller', 'backend -> controller', 'more -> controller', 'compiler -> store', 'store -> bundle', 'bundle -> controller', 'nim -> controller'],
  });
  const at = (id: string) => centreY(byId(elements).get(id)!);
  assert.equal(at('backend'), at('gateway'), 'on the first row of their container');
  assert.equal(at('more'), at('gateway'));
  assert.equal(at('nim'), at('bundle'), 'a tall container keeps its source beside its last row');
});

test('an edge to or from a container never runs against the flow, nested containers and all', () => {
  // After kata-containers' architecture overview: the runtime starts two containers, each with containers inside.
  const spec = {
    nodes: [
      { id: 'containerd' },
      { id: 'shim', label: 'containerd-shim-kata-v2' },
      { id: 'builtin', label: 'Built-in VMM' },
      { id: 'process', label: 'shimv2 process', parent: 'builtin' },
      { id: 'runtime', label: 'shimv2 runtime', parent: 'process' },
      { id: 'dragonball', label: 'Dragonball VMM', parent: 'process' },
      { id: 'virtiofs', parent: 'dragonball' },
      { id: 'guest', label: 'Guest VM', parent: 'builtin' },
      { id: 'agent', label: 'kata-agent', parent: 'guest' },
      { id: 'optional', label: 'Optional VMM' },
      { id: 'ext', label: 'shimv2 process', parent: 'optional' },
      { id: 'vmm', label: 'External VMM', parent: 'optional' },
    ],
    edges: ['containerd -> shim', 'runtime -> dragonball : calls', 'process -> guest : vsock', 'ext -> vmm', 'shim -> builtin', 'shim -> optional'],
  };
  const elements = byId(build(spec));
  const bottom = (id: string) => elements.get(id)!.y + elements.get(id)!.height;
  const top = (id: string) => elements.get(id)!.y;
  assert.ok(bottom('containerd') < top('shim'));
  assert.ok(bottom('shim') < top('builtin') && bottom('shim') < top('optional'), 'both containers lie below the runtime that starts them');
});

test('four final states ending on one end ring: the heads reach it 16 px apart or more, by its top and its sides, each along a leg as long as any arrow\'s', () => {
  const states = ['Succeeded', 'Failed', 'Canceled', 'TimedOut'];
  for (const direction of ['TB', 'LR'] as const) {
    const elements = build({
      layout: { direction },
      nodes: [{ id: 'Scheduled' }, ...states.map((id) => ({ id })), { id: 'done', shape: 'end' }],
      edges: [...states.map((id) => `Scheduled -> ${id}`), ...states.map((id) => `${id} -> done`)],
    });
    const ring = byId(elements).get('done')!;
    const tips = elements.filter((e) => e.type === 'arrow' && e.endBinding?.elementId === 'done').map((a) => [a.x + a.points.at(-1)[0], a.y + a.points.at(-1)[1]] as [number, number]);
    assert.equal(tips.length, 4);
    for (let i = 0; i < tips.length; i++) {
      for (let j = i + 1; j < tips.length; j++) assert.ok(Math.hypot(tips[i]![0] - tips[j]![0], tips[i]![1] - tips[j]![1]) >= 16, `${direction}: heads ${i} and ${j} at least 16 px apart`);
    }
    const sides = new Set(tips.map(([x, y]) => (x < ring.x + 2 ? 'left' : x > ring.x + ring.width - 2 ? 'right' : y < ring.y + ring.height / 2 ? 'top' : 'bottom')));
    assert.ok(sides.size >= 3, `${direction}: the heads reach ${[...sides].join(', ')}`);
    assert.ok(!kinds(elements).includes('piled_arrowheads'));
    // The editor draws an arrowhead at most half as long as the last leg: 12 px of leg made a 6-px stub beside the full heads.
    for (const arrow of elements.filter((e) => e.type === 'arrow' && e.endBinding?.elementId === 'done')) {
      const [end, before] = [arrow.points.at(-1), arrow.points.at(-2)];
      assert.ok(Math.hypot(end[0] - before[0], end[1] - before[1]) >= 32, `${direction}: ${arrow.id}'s last leg is ${Math.hypot(end[0] - before[0], end[1] - before[1])} px`);
    }
  }
});

test('a container whose edges leave for containers far apart keeps to what it holds: the edges jog instead', () => {
  // After kata-containers' runtime layers.
  const leaves = (parent: string, ids: string[]) => ids.map((id) => ({ id, parent }));
  const spec = {
    nodes: [
      { id: 'L2', label: 'Layer 2' },
      { id: 'handler', label: 'Runtime Handler', parent: 'L2' },
      ...leaves('handler', ['sandbox', 'container']),
      { id: 'abstractions', label: 'Container Abstractions', parent: 'L2' },
      ...leaves('abstractions', ['linux', 'virt', 'wasm']),
      { id: 'L3', label: 'Layer 3' },
      { id: 'hypervisor', label: 'Hypervisor Interface', parent: 'L3' },
      ...leaves('hypervisor', ['qemu', 'cloudhv', 'firecracker', 'dragonball']),
      { id: 'resources', label: 'Resource Manager', parent: 'L3' },
      ...leaves('resources', ['sharedfs', 'network', 'rootfs', 'volume', 'cgroup']),
    ],
    edges: ['handler -> abstractions', 'abstractions -> hypervisor', 'abstractions -> resources'],
  };
  assert.deepEqual(kinds(build(spec)).filter((kind) => kind === 'container_slack'), []);
});

test('an edge label sits on its arrow with room on both sides, even on a short arrow', () => {
  for (const direction of ['TB', 'LR']) {
    const elements = build({ layout: { direction }, nodes: [{ id: 'web' }, { id: 'api' }, { id: 'db' }], edges: ['web -> api : HTTPS', 'api -> db : SQL'] });
    const found = kinds(elements).filter((k) => ['crowded_arrow_label', 'detached_arrow_label', 'arrow_through_label', 'label_overlap'].includes(k));
    assert.deepEqual(found, [], direction);
  }
});

test('labels of edges fanning out of one node get their own room', () => {
  const elements = build({
    nodes: [{ id: 'gw', label: 'API gateway' }, { id: 'orders' }, { id: 'payments' }, { id: 'search' }],
    edges: ['gw -> orders : /orders', 'gw -> payments : /pay', 'gw -> search : /search'],
  });
  assert.deepEqual(kinds(elements), []);
});

test('edges between containers cross only borders, never a container label or a shape', () => {
  for (const direction of ['TB', 'BT', 'LR', 'RL']) {
    const elements = build({
      layout: { direction },
      nodes: [
        { id: 'users', label: 'Users', shape: 'ellipse' },
        { id: 'vpc', label: 'Production VPC' },
        { id: 'cluster', label: 'Kubernetes cluster', parent: 'vpc' },
        { id: 'gw', label: 'API gateway', parent: 'cluster' },
        { id: 'orders', label: 'Orders service', parent: 'cluster' },
        { id: 'db', label: 'Orders DB', parent: 'vpc' },
        { id: 'stripe', label: 'Stripe' },
      ],
      edges: ['users -> gw : HTTPS', 'gw -> orders', 'orders -> db : SQL', 'orders -> stripe : charge'],
    });
    const found = kinds(elements).filter((k) => ['edge_through_shape', 'edge_through_container_label', 'arrow_through_label'].includes(k));
    assert.deepEqual(found, [], direction);
  }
});

test('the branches of a decision leave from distinct points of its outline: a vertex, or the slanted side above where they run on', () => {
  for (const direction of ['TB', 'LR']) {
    const elements = build({
      layout: { direction },
      nodes: [
        { id: 'cart', label: 'Review cart' },
        { id: 'signed', label: 'Signed in?', shape: 'diamond' },
        { id: 'login', label: 'Sign in or continue as guest' },
        { id: 'address', label: 'Collect shipping address' },
      ],
      edges: ['cart -> signed', 'signed -> address : yes', 'signed -> login : no', 'login -> address'],
    });
    const byIds = byId(elements);
    const diamond = byIds.get('signed')!;
    const [cx, cy, hw, hh] = [diamond.x + diamond.width / 2, diamond.y + diamond.height / 2, diamond.width / 2, diamond.height / 2];
    const start = (arrowId: string): [number, number] => {
      const arrow = byIds.get(arrowId)!;
      const [x, y] = [arrow.x + arrow.points[0][0], arrow.y + arrow.points[0][1]];
      // On the outline |dx|/hw + |dy|/hh is 1; the arrow starts a few pixels off it (its binding gap).
      const along = Math.abs(x - cx) / hw + Math.abs(y - cy) / hh;
      assert.ok(Math.abs(along - 1) < 0.2, `${direction}: ${arrowId} leaves from the diamond's outline (${along.toFixed(2)})`);
      return [x, y];
    };
    const [a, b] = [start('signed-to-address'), start('signed-to-login')];
    assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) >= 16, `${direction}: the two branches leave 16 px apart or more`);
    assert.deepEqual(kinds(elements), [], direction);
  }
});

test('a branch that runs on under a wide decision leaves its slanted side straight down, not out to the vertex and back', () => {
  // temporal's schedules: "Schedule updated since LastProcessedTime?" sent Yes and No out of its tips and back in, a bracket on each side.
  const elements = build({
    nodes: [
      { id: 'start', label: 'GeneratorTask Executes' },
      { id: 'updated', label: 'Schedule updated since LastProcessedTime?', shape: 'diamond' },
      { id: 'set', label: 'Set LastProcessedTime to UpdateTime' },
      { id: 'process', label: 'Process time range and buffer starts' },
    ],
    edges: ['start -> updated', 'updated -> set : Yes', 'updated -> process : No', 'set -> process'],
  });
  const byIds = byId(elements);
  const diamond = byIds.get('updated')!;
  for (const id of ['updated-to-set', 'updated-to-process']) {
    const arrow = byIds.get(id)!;
    const [first, second] = (arrow.points as number[][]).map(([x, y]) => [arrow.x + x!, arrow.y + y!]);
    assert.ok(Math.abs(first![0]! - second![0]!) < 1 && second![1]! > first![1]!, `${id} leaves straight down`);
    const fromMiddle = Math.abs(first![0]! - (diamond.x + diamond.width / 2));
    assert.ok(fromMiddle >= 24 && fromMiddle <= diamond.width / 2 - 24, `${id} leaves the slanted side, ${fromMiddle} px from the middle`);
    assert.ok(first![0]! > diamond.x && first![0]! < diamond.x + diamond.width, `${id} stays under the diamond`);
  }
  assert.deepEqual(kinds(elements), []);
});

test('a branch whose run lies just inside a wide decision\'s point leaves from under the point, and arrows meet the point where the editor draws it, rounded', () => {
  // jaeger's structured query filters: "structuredFilters gate enabled?" sent no and yes out of its points 16 px, down, and back in (a bracket), from 16 px short of the drawn points.
  const elements = build({
    nodes: [
      { id: 'hasFilter', label: 'did the caller\nsend a filter?', shape: 'diamond' },
      { id: 'gate', label: 'structuredFilters\ngate enabled?', shape: 'diamond' },
      { id: 'refuseGate', label: '400 — this deployment takes\nno filter from a caller', shape: 'stadium' },
      { id: 'checks', label: 'free of legacy predicate\nfields, and well formed?', shape: 'diamond' },
      { id: 'ic', label: 'is an interceptor\nconfigured?', shape: 'diamond' },
    ],
    edges: ['hasFilter -> gate : yes', 'gate -> refuseGate : no', 'gate -> checks : yes', 'hasFilter -> ic : no', 'checks -> ic : yes'],
  });
  const byIds = byId(elements);
  const gate = byIds.get('gate')!;
  for (const id of ['gate-to-refuseGate', 'gate-to-checks']) {
    const arrow = byIds.get(id)!;
    const [first, second] = (arrow.points as number[][]).map(([x, y]) => [arrow.x + x!, arrow.y + y!]) as [[number, number], [number, number]];
    assert.ok(Math.abs(first[0] - second[0]) < 1 && second[1] > first[1], `${id} leaves straight down: ${JSON.stringify([first, second])}`);
    // The editor rounds a diamond's points: a side point lies a 32nd of the width inside the box.
    assert.ok(first[0] > gate.x + gate.width / 32 - 1 && first[0] < gate.x + gate.width - gate.width / 32 + 1, `${id} starts under the drawn diamond`);
  }
  assert.deepEqual(kinds(elements), []);
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(spec, new RegExp(`end ${BINDING_GAP} px short of the outline as the editor draws it \\(a diamond's points are rounded, a 32nd of its width inside its box\\)`), 'docs/spec.md says so');
});

test('a decision\'s side branch steps out less far rather than run beside an arrow passing its vertex', () => {
  // istio's CA diagram: "Write certs to file" passes 28 px right of grpc's right vertex, and the branch to the files left by it.
  const elements = build({
    nodes: [
      { id: 'agent', label: 'Istio Agent' },
      ...['sds', 'SecretManager', 'caClient', 'TokenProvider'].map((id) => ({ id, shape: 'ellipse', parent: 'agent' })),
      { id: 'grpc', shape: 'diamond', parent: 'agent' },
      { id: 'cfiles', label: 'Certificate Files', shape: 'ellipse', parent: 'agent' },
      { id: 'istiod', label: 'Istiod' },
      { id: 'ca', shape: 'ellipse', parent: 'istiod' },
    ],
    edges: [
      'grpc -> ca : Send CSR gRPC Request',
      'SecretManager -> caClient : Sign CSR',
      'caClient -> grpc',
      'grpc -> TokenProvider : Fetch JWT',
      'grpc -> cfiles : Fetch Cert',
      'sds -> SecretManager : Generate certificate',
      'SecretManager -> cfiles : Write certs to file',
    ],
  });
  const issues = lintScene(elements as never).filter((issue) => issue.kind === 'edges_too_close');
  assert.deepEqual(issues.map((issue) => issue.message), []);
});

test('an edge that skips a layer goes around the box in its way, 20 px clear', () => {
  for (const direction of ['TB', 'LR']) {
    const elements = build({
      layout: { direction },
      nodes: [{ id: 'api', label: 'API' }, { id: 'queue', label: 'Queue' }, { id: 'worker', label: 'Worker' }],
      edges: ['api -> queue', 'queue -> worker', 'api -> worker : direct'],
    });
    const byIds = byId(elements);
    const queue = byIds.get('queue')!;
    const arrow = byIds.get('api-to-worker')!;
    const points = arrow.points.map(([x, y]: number[]) => [arrow.x + x, arrow.y + y]);
    for (let k = 0; k + 1 < points.length; k++) {
      const [[ax, ay], [bx, by]] = [points[k], points[k + 1]];
      const clear = Math.max(Math.min(ax, bx) - (queue.x + queue.width), queue.x - Math.max(ax, bx), Math.min(ay, by) - (queue.y + queue.height), queue.y - Math.max(ay, by));
      assert.ok(clear >= 20, `${direction}: segment ${k} of api-to-worker keeps ${clear} px from queue`);
    }
    assert.deepEqual(kinds(elements), [], direction);
  }
});

test('edges between the same layers never share a run, even when many fan out and in', () => {
  for (const direction of ['TB', 'LR']) {
    const elements = build({
      layout: { direction },
      nodes: ['gw', 'a', 'b', 'c', 'd', 'db'].map((id) => ({ id })),
      edges: ['gw -> a', 'gw -> b', 'gw -> c', 'gw -> d', 'a -> db', 'b -> db', 'c -> db', 'd -> db', 'gw -> db : audit'],
    });
    assert.deepEqual(kinds(elements), [], direction);
  }
});

test('edges entering a container from one side and leaving it from the other cross nothing', () => {
  // A topic container whose middle topic is fed from a consumer above it and feeds one below it: entering and leaving
  // a container crosses only its border, so the ordering must not trade that for a real crossing.
  for (const direction of ['TB', 'LR'] as const) {
    const input = {
      direction,
      nodes: [
        { id: 'kafka', width: 150, height: 30 },
        ...['orders', 'payments', 'dlq'].map((id) => ({ id, width: 150, height: 60, parent: 'kafka' })),
        ...['billing', 'fulfil'].map((id) => ({ id, width: 150, height: 60 })),
      ],
      edges: [
        ['orders', 'billing'],
        ['orders', 'fulfil'],
        ['billing', 'payments'],
        ['payments', 'fulfil'],
        ['billing', 'dlq'],
        ['fulfil', 'dlq'],
      ].map(([from, to]) => ({ id: `${from}-${to}`, from: from!, to: to! })),
    };
    assert.equal(countEdgeCrossings(input, layoutGraph(input)), 0, direction);
  }
});

test('an arrow into a container from above ends on its top border and takes no room beside what it holds, nested or not', () => {
  // After kata-containers' architecture overview: the container was as wide as its label and its one node side by side.
  for (const parent of [{}, { parent: 'process' }]) {
    const spec = {
      nodes: [
        ...('parent' in parent ? [{ id: 'process', label: 'shimv2 process (Single Process)' }] : []),
        { id: 'runtime', label: 'shimv2 runtime', ...parent },
        { id: 'vmm', label: 'Dragonball VMM (library)', ...parent },
        { id: 'helpers', label: 'virtiofs / nydus\n(BuiltIn)', parent: 'vmm' },
      ],
      edges: [{ from: 'runtime', to: 'vmm', label: 'direct function calls' }],
    };
    const elements = build(spec);
    const vmm = byId(elements).get('vmm')!;
    const widest = Math.max(byId(elements).get('vmm-label')!.width, byId(elements).get('helpers')!.width);
    assert.ok(vmm.width <= widest + 2 * CONTAINER_PADDING + 16, `${vmm.width} px wide for ${widest} px of content`);
    const arrow = elements.find((e) => e.type === 'arrow')!;
    const [dx, dy] = (arrow.points as number[][]).at(-1)!;
    const [x, y] = [arrow.x + dx!, arrow.y + dy!];
    assert.ok(y <= vmm.y && y >= vmm.y - 8, `the arrow ends at the top border (${y} against ${vmm.y})`);
    assert.ok(x >= vmm.x + 16 && x <= vmm.x + vmm.width - 16, 'clear of the corners');
  }
});

test('an arrow out of a container from below starts on its bottom border and takes no room beside what it holds', () => {
  // After kata-containers' runtime layers: the door of each edge leaving "Container Abstractions" took a column of its own.
  const spec = {
    nodes: [
      { id: 'abstractions', label: 'Container Abstractions' },
      ...['linux', 'virt', 'wasm'].map((id) => ({ id, parent: 'abstractions' })),
      { id: 'hypervisor', label: 'Hypervisor Interface' },
      ...['qemu', 'firecracker'].map((id) => ({ id, parent: 'hypervisor' })),
      { id: 'resources', label: 'Resource Manager' },
      ...['sharedfs', 'network'].map((id) => ({ id, parent: 'resources' })),
    ],
    edges: ['abstractions -> hypervisor', 'abstractions -> resources'],
  };
  const elements = build(spec);
  const boxes = byId(elements);
  const container = boxes.get('abstractions')!;
  const members = ['linux', 'virt', 'wasm'].map((id) => boxes.get(id)!);
  const held = Math.max(...members.map((m) => m.x + m.width)) - Math.min(...members.map((m) => m.x));
  assert.ok(container.width <= held + 2 * CONTAINER_PADDING + 1, `${container.width} px wide for ${held} px of members`);
  const starts = elements.filter((e) => e.type === 'arrow').map((arrow) => [arrow.x + arrow.points[0][0], arrow.y + arrow.points[0][1]] as const);
  for (const [x, y] of starts) {
    assert.ok(Math.abs(y - (container.y + container.height)) <= 8, `starts at the bottom border (${y} against ${container.y + container.height})`);
    assert.ok(x >= container.x + 16 && x <= container.x + container.width - 16, 'clear of the corners');
  }
  assert.ok(Math.abs(starts[0]![0] - starts[1]![0]) >= 16, 'the two arrows leave 16 px apart or more');
});

test('a container\'s label moves along its top, away from an arrow that enters the container under it', () => {
  // istio's ztunnel diagram: the dotted HBONE edge enters "Server Node" under the left end of its label.
  const elements = build(ztunnels());
  const issues = lintScene(elements as never).filter((issue) => issue.kind === 'edge_through_container_label');
  assert.deepEqual(issues.map((issue) => issue.elementIds), [], 'no arrow through a container\'s label');
  const container = byId(elements).get('c2')!;
  const label = byId(elements).get('c2-label')!;
  assert.notEqual(label.textAlign, 'center', 'the label left the arrow\'s way');
  assert.ok(label.x >= container.x && label.x + label.width <= container.x + container.width, 'inside the container');
  assert.equal(byId(elements).get('c1-label')!.textAlign, 'center', 'a label no arrow runs under stays in the middle, as Mermaid and dot put it');
});

test('an arrow that would run through the label of the container it enters comes in by its target\'s side instead, as Mermaid draws it', () => {
  // openfeature's hooks: each layer's arrow ran across the next layer's title down into its first node.
  for (const direction of ['TB', 'BT', 'LR', 'RL'] as const) {
    const elements = build({
      layout: { direction },
      nodes: [
        { id: 'api', label: 'API Layer' },
        { id: 'a', label: 'A.before', parent: 'api' },
        { id: 'b', label: 'B.before', parent: 'api' },
        { id: 'z', label: 'A.after', parent: 'api' },
        { id: 'client', label: 'Client Layer' },
        { id: 'c', label: 'C.before', parent: 'client' },
        { id: 'd', label: 'D.before', parent: 'client' },
      ],
      edges: ['a -> b', 'b -> c', 'c -> d', 'd -> z'],
    });
    const found = lintScene(elements as never).filter((issue) => issue.kind === 'edge_through_container_label');
    assert.deepEqual(found.map((issue) => issue.elementIds), [], `${direction}: no arrow through a container's label`);
    // Only a top-to-bottom flow enters a container through its label's side.
    if (direction !== 'TB') continue;
    const arrow = byId(elements).get('b-to-c')!;
    const target = byId(elements).get('c')!;
    const [last, end] = (arrow.points as number[][]).slice(-2).map(([x, y]) => [arrow.x + x!, arrow.y + y!]);
    assert.ok(Math.abs(last![1]! - end![1]!) < 1, 'the arrow ends with a run across the flow');
    assert.ok(Math.abs(end![1]! - centreY(target)) < 1 && end![0]! <= target.x && target.x - end![0]! < 8, `into the middle of its target's left side: ${end} ${target.x},${target.y}`);
    assert.equal(byId(elements).get('client-label')!.textAlign, 'center', 'the label stays in the middle');
  }
});

test('a chain inside a container runs straight: no arrow jogs sideways by less than 16 px where its ends can line up', () => {
  // openfeature's hooks: "E.before" and "F.before" sat 14 px apart, F pulled towards the next layer as hard as towards E.
  const layers = [
    ['res', 'Flag Resolution', ['R']],
    ['prov', 'Provider Layer', ['G', 'H']],
    ['inv', 'Invocation Layer', ['E', 'F']],
    ['client', 'Client Layer', ['C', 'D']],
    ['api', 'API Layer', ['A', 'B']],
  ] as const;
  const nodes: unknown[] = [];
  for (const [id, label, members] of layers) {
    nodes.push({ id, label });
    for (const m of members) {
      nodes.push({ id: `${m}b`, label: `${m}.before`, parent: id });
      if (m !== 'R') nodes.push({ id: `${m}a`, label: `${m}.after`, parent: id });
    }
  }
  const chain = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
  const edges = [...chain.slice(1).map((m, i) => `${chain[i]}b -> ${m}b`), 'Hb -> Rb', 'Rb -> Ha', ...chain.slice(0, -1).reverse().map((m, i) => `${chain[chain.length - 1 - i]}a -> ${m}a`)];
  const elements = build({ nodes, edges });
  for (const arrow of elements.filter((e) => e.type === 'arrow')) {
    const points = arrow.points as number[][];
    if (points.length !== 4) continue;
    const jog = Math.abs(points[2]![0]! - points[1]![0]!);
    assert.ok(jog === 0 || jog >= 16, `${arrow.id as string} jogs ${jog} px sideways`);
  }
});

test('a flat tree that fits the page keeps its siblings on one row: it is not spread over several', () => {
  // reth's node builder: seven children of one node, three of them with two children each, came out over five rows.
  const elements = build({
    nodes: ['Node Builder', 'Database', 'Network', 'Consensus', 'EVM', 'RPC Server', 'Transaction Pool', 'DB Storage', 'Static Files', 'Discovery', 'ETH Protocol', 'State Provider', 'Block Executor'].map((label, i) => ({ id: `n${i}`, label })),
    edges: ['n0 -> n1', 'n0 -> n2', 'n0 -> n3', 'n0 -> n4', 'n0 -> n5', 'n0 -> n6', 'n1 -> n7', 'n1 -> n8', 'n2 -> n9', 'n2 -> n10', 'n4 -> n11', 'n4 -> n12'],
  });
  const rows = (ids: number[]) => new Set(ids.map((i) => byId(elements).get(`n${i}`)!.y));
  assert.equal(rows([1, 2, 3, 4, 5, 6]).size, 1, 'the children on one row');
  assert.equal(rows([7, 8, 9, 10, 11, 12]).size, 1, 'the grandchildren on one row');
  const xs = elements.filter((e) => e.type === 'rectangle').flatMap((e) => [e.x, e.x + e.width]);
  assert.ok(Math.max(...xs) - Math.min(...xs) <= 1600, 'within a wide screen');
});

test('an edge a few pixels out of line slides its port along the side to run straight', () => {
  // Graphviz's clust5: x1 has two edges down, its ports 20 px apart, and y1 sits straight under it: the edge jogged 10 px.
  const nodes = ['a', 'b', 'c', 'x0', 'y0', 'z0', 'x1', 'y1', 'z1', 'x2', 'y2', 'z2'].map((id) => ({ id, shape: 'ellipse', ...(id.length === 2 ? { parent: `cluster${id[1]}` } : {}) }));
  const clusters = ['cluster0', 'cluster1', 'cluster2'].map((id) => ({ id, label: '' }));
  const elements = build({
    nodes: [...clusters, ...nodes],
    edges: ['a -> b', 'b -> c', 'x0 -> y0', 'x0 -> z0', 'x1 -> y1', 'x1 -> z1', 'x2 -> y2', 'x2 -> z2', 'a -> x0', 'b -> x1', 'b -> x2', 'a -> z2', 'c -> z1'],
  });
  for (const arrow of elements.filter((e) => e.type === 'arrow')) {
    const points = arrow.points as number[][];
    for (let i = 1; i < points.length; i++) {
      const [dx, dy] = [Math.abs(points[i]![0]! - points[i - 1]![0]!), Math.abs(points[i]![1]! - points[i - 1]![1]!)];
      // A run across the flow shorter than 16 px is a jog.
      assert.ok(dy > 0 || dx === 0 || dx >= 16, `${arrow.id as string} jogs ${dx} px`);
    }
  }
});

test('a decision\'s branch steps out to where its route runs on when that lies just beyond the vertex: no jog back', () => {
  // foundationdb's load balancing: "Yes" left the bottom vertex 12 px out, then jogged 2 px back to the line it ran on.
  const elements = build({
    layout: { direction: 'LR' },
    nodes: [
      { id: 'H0', label: 'Has alternatives?', shape: 'diamond' },
      { id: 'H1', label: 'Pick an alternative' },
      { id: 'H2', label: 'Backoff' },
      { id: 'H3', label: 'Request' },
      { id: 'H4', label: 'Reply', shape: 'stadium' },
      { id: 'H5', label: 'Error', shape: 'stadium' },
      { id: 'H6', label: 'Never', shape: 'stadium' },
      { id: 'H', label: 'Start', shape: 'circle' },
    ],
    // Mermaid reads `H0 --No--> H6` as the label "N" on a link one rank longer.
    edges: ['H -> H0', { from: 'H0', to: 'H6', label: 'N', minLength: 2 }, 'H0 -> H1 : Yes', 'H1 -> H2 : No healthy alternatives', 'H2 -> H1 : Retry', 'H1 -> H3 : Has alternative', 'H3 -> H4 : Success', 'H3 -> H5 : Exception', 'H3 -> H2 : Broken Promise'],
  });
  const arrow = byId(elements).get('H0-to-H1')!;
  const points = arrow.points as number[][];
  for (let i = 1; i < points.length; i++) {
    const across = Math.abs(points[i]![1]! - points[i - 1]![1]!);
    assert.ok(across === 0 || across >= 8, `the Yes branch jogs ${across} px`);
  }
});

test('a container\'s icon sits beside its label wherever the label goes: after it, or before it on the right', () => {
  for (const align of ['left', 'center', 'right'] as const) {
    const elements = ztunnelsWithTitle(align, 'icon-kubernetes');
    const container = byId(elements).get('c2')!;
    const label = byId(elements).get('c2-label')!;
    const image = elements.find((e) => e.type === 'image')!;
    assert.equal(label.textAlign, align);
    assert.ok(image.x >= container.x && image.x + image.width <= container.x + container.width, `${align}: the icon inside the container`);
    assert.ok(align === 'right' ? image.x + image.width < label.x : image.x > label.x + label.width, `${align}: the icon ${align === 'right' ? 'before' : 'after'} the label, clear of it`);
  }
});

test('a container\'s title moved to a side of its header sits further in from that side than the editor\'s padding, as docs/spec.md says, and the editor keeps it there', async () => {
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(spec, new RegExp(`which sits ${HEADER_SIDE_INSET} px in from that side rather than at the editor's ${BOUND_TEXT_PADDING} px`), 'docs/spec.md states the inset');
  for (const align of ['left', 'right'] as const) {
    const elements = ztunnelsWithTitle(align);
    const container = byId(elements).get('c2')!;
    const label = byId(elements).get('c2-label')!;
    const inset = align === 'left' ? label.x - container.x : container.x + container.width - (label.x + label.width);
    assert.ok(Math.abs(inset - HEADER_SIDE_INSET) < 0.01, `${align}: the title ${inset} px from the side`);
    assert.deepEqual(lintScene(elements as never).filter((issue) => issue.kind === 'label_near_outline'), [], `${align}: clear of the outline`);
    await assertSurvivesRestore(elements, { refreshDimensions: true });
  }
});

test('a label on a same-rank edge that bends leaves 16 px of its arrow in sight on each side (wormhole-mailbox)', () => {
  // S2A's right side holds two ports ("connected" out, "lost" in), so "connected" leaves off-centre and jogs to P2's middle.
  const elements: Element[] = sceneFromSpec(
    parseSpec(
      {
        layout: { sameRank: [['S2A', 'P2', 'S2B']] },
        nodes: [
          { id: 'S1', label: 'S1: known', shape: 'ellipse' },
          { id: 'S2A', label: 'S2A:\nknown\nmaybe opened', shape: 'ellipse' },
          { id: 'P2', label: 'RC.tx_open\nRC.tx_add(queued)' },
          { id: 'S2B', label: 'S2B:\nknown\nopened', shape: 'ellipse' },
        ],
        edges: ['S1 -> S2A', 'S2A -> P2 : connected', 'P2 -> S2B', 'S2B -> S2A : lost'],
      },
      { isIcon: isCatalogIcon },
    ),
    { updated: 1, layout: layoutGraph },
  );
  assert.deepEqual(metIssues(lintScene(elements as never)).map((issue) => issue.message), []);
});

test('a container\'s title is placed where it is clear as wide as the scene will draw it, on one line when the box is wide enough', () => {
  // kata-runtime-layers: "Layer 3 — Infrastructure Abstraction Layer" was checked at its 400 px wrap (371 px of text) and put on the left; drawn on one line (431 px) it ran over an arrow 30 px further on.
  const box = { x: 0, y: 1370, width: 1425, height: 890 };
  const header = { width: 401, height: 70 };
  const down = (x: number): Array<[number, number]> => [[x, 1300], [x, 1565]];
  const routes = [down(430), down(700), down(1200)];
  assert.equal(headerAlign(box, header, 1480, routes), 'left', 'checked at its wrapped width, the left is clear');
  assert.notEqual(headerAlign(box, { ...header, titleWidth: 431 }, 1480, routes), 'left', 'drawn on one line, the title would cover the arrow at x 430');
  // And the scene tells the layout that width.
  let input: Parameters<typeof layoutGraph>[0] | undefined;
  sceneFromSpec(parseSpec({ nodes: [{ id: 'layer', label: 'Layer 3 — Infrastructure Abstraction Layer' }, { id: 'a', parent: 'layer' }, { id: 'b', parent: 'layer' }], edges: ['a -> b'] }, { isIcon: isCatalogIcon }), {
    updated: 1,
    layout: (given) => layoutGraph((input = given)),
  });
  const title = input!.nodes.find((node) => node.id === 'layer')!;
  assert.ok(title.titleWidth! > title.width, `the one-line title (${title.titleWidth} px) is wider than the wrapped header (${title.width} px)`);
});

/** The ztunnels scene with the "Server Node" container's title placed at `align` along its top. */
function ztunnelsWithTitle(align: 'left' | 'center' | 'right', icon?: string): Element[] {
  return sceneFromSpec(parseSpec(ztunnels(icon), { isIcon: isCatalogIcon }), {
    updated: 1,
    layout: (input) => {
      const result = layoutGraph(input);
      result.nodes.c2!.labelAlign = align;
      return result;
    },
  });
}

function ztunnels(icon?: string): unknown {
  return {
    layout: { direction: 'LR' },
    nodes: [
      { id: 'c1', label: 'Client Node' },
      { id: 'client', label: 'Client', parent: 'c1' },
      { id: 'cz', label: 'Ztunnel', parent: 'c1' },
      { id: 'c2', label: 'Server Node', ...(icon ? { icon } : {}) },
      { id: 'server', label: 'Server', parent: 'c2' },
      { id: 'sz', label: 'Ztunnel', parent: 'c2' },
    ],
    edges: ['client -> cz : Plain', { from: 'cz', to: 'server', label: 'HBONE (target)', style: 'dotted' }, 'cz -> sz : HBONE (actual)', 'sz -> server : Plain'],
  };
}

test('an unlabelled self-loop on a wide ellipse meets it on its side, clear of the arrows that fill its top and bottom (graphviz-nan)', () => {
  // nan's Target: a wide ellipse with eight arrows in from above, eight out below, and a loop; the loop's end had landed among the bottom heads.
  const below = Array.from({ length: 8 }, (_, i) => `below${i}`);
  const above = Array.from({ length: 8 }, (_, i) => `above${i}`);
  for (const direction of ['TB', 'LR'] as const) {
    const elements = build({
      layout: { direction },
      nodes: [...above.map((id) => ({ id })), { id: 'target', label: 'Target', shape: 'ellipse' }, ...below.map((id) => ({ id }))],
      edges: [...above.map((id) => `${id} -> target`), 'target -> target', ...below.map((id, i) => (i % 2 ? `${id} -> target` : `target -> ${id}`))],
    });
    const target = byId(elements).get('target')!;
    const loop = byId(elements).get('target-to-target')!;
    const [cx, cy] = [target.x + target.width / 2, target.y + target.height / 2];
    for (const [px, py] of [loop.points[0], loop.points.at(-1)]) {
      // Judged in the ellipse's proportions, as a reader (and the lint) sees which side an end is on.
      const [dx, dy] = [(loop.x + px - cx) / (target.width / 2), (loop.y + py - cy) / (target.height / 2)];
      const across = direction === 'TB' ? Math.abs(dx) > Math.abs(dy) : Math.abs(dy) > Math.abs(dx);
      assert.ok(across, `${direction}: the loop's end (${dx.toFixed(2)}, ${dy.toFixed(2)}) is on the side it leaves from`);
    }
    assert.ok(!kinds(elements).includes('piled_arrowheads'), direction);
  }
});

test('an edge\'s head and tail labels are small free texts beside its ends, on no line, shape or text, the one beside several arrows on the side away from the others, and the editor keeps them', async () => {
  // rustc's MIR diagram: multiplicities at the heads ("*", "2"), the role at the tail ("read").
  for (const direction of ['TB', 'LR'] as const) {
    const elements = build({
      layout: { direction },
      nodes: [{ id: 'mir' }, { id: 'block' }, { id: 'local' }, { id: 'aggregate' }, { id: 'binary' }, { id: 'operand' }, { id: 'place' }],
      edges: [
        { from: 'mir', to: 'block', headLabel: '*' },
        { from: 'mir', to: 'local', headLabel: '*' },
        { from: 'aggregate', to: 'operand', headLabel: '*' },
        { from: 'binary', to: 'operand', headLabel: '2', label: 'left, right' },
        { from: 'operand', to: 'place', tailLabel: 'read' },
        'block -> aggregate',
        'block -> binary',
      ],
    });
    const all = byId(elements);
    const ends = [
      ['mir-to-block', 'head'],
      ['mir-to-local', 'head'],
      ['aggregate-to-operand', 'head'],
      ['binary-to-operand', 'head'],
      ['operand-to-place', 'tail'],
    ] as const;
    for (const [edge, end] of ends) {
      const text = all.get(`${edge}-${end}-label`)!;
      assert.equal(text.type, 'text', `${edge}'s ${end} label is drawn`);
      assert.equal(text.containerId, null);
      assert.equal(text.fontSize, 16);
      const arrow = all.get(edge)!;
      const [px, py] = end === 'head' ? arrow.points.at(-1) : arrow.points[0];
      const [x, y] = [arrow.x + px, arrow.y + py];
      const gap = Math.hypot(Math.max(text.x - x, 0, x - (text.x + text.width)), Math.max(text.y - y, 0, y - (text.y + text.height)));
      assert.ok(gap <= 30, `${direction}: ${edge}'s ${end} label lies ${gap.toFixed(1)} px from its end`);
    }
    // Each label is nearer its own arrow's end than any other arrow's end on that node.
    const tipOf = (id: string) => {
      const a = all.get(id)!;
      return [a.x + a.points.at(-1)[0], a.y + a.points.at(-1)[1]] as const;
    };
    for (const [own, other] of [['aggregate-to-operand', 'binary-to-operand'], ['binary-to-operand', 'aggregate-to-operand']] as const) {
      const text = all.get(`${own}-head-label`)!;
      const [cx, cy] = [text.x + text.width / 2, text.y + text.height / 2];
      const distance = (id: string) => Math.hypot(cx - tipOf(id)[0], cy - tipOf(id)[1]);
      assert.ok(distance(own) < distance(other), `${direction}: ${own}'s head label is nearer its own head`);
    }
    assert.deepEqual(kinds(elements), [], direction);
    await assertSurvivesRestore(elements);
  }
});

test('a head label on the middle arrow of a fan with no room between its lines goes just inside the shape the arrows end at, near its own end and off the shape\'s middle (graphviz-oldarrows)', async () => {
  for (const direction of ['TB', 'LR'] as const) {
    const sources = Array.from({ length: 9 }, (_, i) => `n${i}`);
    const elements = build({
      layout: { direction },
      nodes: [...sources.map((id) => ({ id })), { id: 'hub', label: 'Hub', shape: 'circle' }],
      edges: sources.map((id) => ({ from: id, to: 'hub', ...(id === 'n4' ? { headLabel: 'samehead' } : {}) })),
    });
    const all = byId(elements);
    const [hub, text, arrow] = [all.get('hub')!, all.get('n4-to-hub-head-label')!, all.get('n4-to-hub')!];
    assert.ok(text.x >= hub.x && text.y >= hub.y && text.x + text.width <= hub.x + hub.width && text.y + text.height <= hub.y + hub.height, `${direction}: the label lies inside the hub`);
    const [tx, ty] = [arrow.x + arrow.points.at(-1)[0], arrow.y + arrow.points.at(-1)[1]];
    const [cx, cy] = [text.x + text.width / 2, text.y + text.height / 2];
    const entering = direction === 'TB' ? [ty, text.y + text.height, hub.height] : [tx, text.x + text.width, hub.width];
    assert.ok(entering[1]! - entering[0]! <= INSIDE_DEPTH * entering[2]!, `${direction}: the label keeps to the hub's outer ${INSIDE_DEPTH * 100} % from where its arrow enters`);
    for (const other of sources.filter((id) => id !== 'n4')) {
      const a = all.get(`${other}-to-hub`)!;
      const tip = [a.x + a.points.at(-1)[0], a.y + a.points.at(-1)[1]];
      assert.ok(Math.hypot(cx - tx, cy - ty) < Math.hypot(cx - tip[0]!, cy - tip[1]!), `${direction}: the label is nearer its own arrow's end than ${other}'s`);
    }
    assert.deepEqual(kinds(elements), [], `${direction}: no line through the label, no label over another`);
    await assertSurvivesRestore(elements);
  }
  const doc = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(doc, new RegExp(`${INSIDE_MARGIN} px clear of its outline and within the ${INSIDE_DEPTH * 100} % of its depth nearest the arrow`), 'docs/spec.md states the margin and the depth');
});

test('a caption is a large free text centred above the drawing, or below it, wrapped at the drawing\'s width, and the editor keeps it', async () => {
  const spec = { nodes: [{ id: 'web' }, { id: 'api' }, { id: 'db' }], edges: ['web -> api', 'api -> db'] };
  for (const at of ['top', 'bottom'] as const) {
    for (const caption of ['Order flow', 'How an order goes from the shop front through the API to the database and back, told in more words than fit on one line']) {
      const elements = build({ ...spec, caption, ...(at === 'bottom' ? { layout: { captionAt: 'bottom' } } : {}) });
      const text = byId(elements).get('diagram-caption')!;
      const rest = elements.filter((e) => e.id !== 'diagram-caption');
      const [left, right] = [Math.min(...rest.map((e) => e.x)), Math.max(...rest.map((e) => e.x + e.width))];
      const [top, bottom] = [Math.min(...rest.map((e) => e.y)), Math.max(...rest.map((e) => e.y + e.height))];
      assert.equal(text.type, 'text');
      assert.equal(text.fontSize, 28);
      assert.equal(text.originalText, caption);
      assert.ok(Math.abs(text.x + text.width / 2 - (left + right) / 2) < 1, `${at}: centred over the drawing`);
      if (at === 'top') assert.ok(Math.abs(text.y + text.height + 24 - top) < 1, 'above the drawing, 24 px clear');
      else assert.ok(Math.abs(text.y - bottom - 24) < 1, 'below the drawing, 24 px clear');
      assert.ok(text.width <= Math.max(400, right - left) + 1, 'no wider than the drawing (or 400 px)');
      if (caption.length > 40) assert.ok(text.text.includes('\n'), 'a long caption wraps');
      assert.deepEqual(kinds(elements), []);
      await assertSurvivesRestore(elements);
    }
  }
});

test('a long edge lines up its bends where its neighbours leave room: no arrow of graphviz-pmpipe turns four times or more (three of them climbed staircases)', () => {
  const { spec } = importDot(fs.readFileSync(new URL('../../bench/quality/real/graphviz-pmpipe.dot', import.meta.url), 'utf8'));
  const turnsOf = (points: number[][]) => {
    let turns = 0;
    for (let i = 1; i + 1 < points.length; i++) {
      const [ax, ay, bx, by] = [points[i]![0]! - points[i - 1]![0]!, points[i]![1]! - points[i - 1]![1]!, points[i + 1]![0]! - points[i]![0]!, points[i + 1]![1]! - points[i]![1]!];
      if (Math.abs(ax * by - ay * bx) > 1e-6) turns++;
    }
    return turns;
  };
  const winding = build(spec)
    .filter((e) => e.type === 'arrow')
    .map((a) => [a.id, turnsOf(a.points)] as const)
    .filter(([, turns]) => turns >= 4);
  assert.deepEqual(winding, []);
});

test('a container holding short nodes beside a tall one hugs what it holds: its title comes down to them, no band left empty, even when an arrow ends on the container (k8s-security-audit-dataflow, kata-runtime-layers)', () => {
  for (const toContainer of [false, true]) {
    const elements = build({
      nodes: [
        { id: 'api', label: 'kube-apiserver' },
        { id: 'data', label: 'Master Control Data' },
        { id: 'etcd', label: 'N-ary etcd servers', parent: 'data' },
        { id: 'components', label: 'Master Control Components' },
        { id: 'scheduler', label: 'kube-scheduler, which watches for new pods and picks their nodes', shape: 'circle', parent: 'components' },
      ],
      edges: [toContainer ? 'api -> data' : 'api -> etcd', 'api -> scheduler'],
    });
    const all = byId(elements);
    const [data, etcd, scheduler] = [all.get('data')!, all.get('etcd')!, all.get('scheduler')!];
    assert.ok(scheduler.height > etcd.height + 80, 'the neighbour is much taller');
    const title = all.get('data-label')!;
    assert.ok(etcd.y - (title.y + title.height) <= 2 * CONTAINER_PADDING, `the title sits just above the member (${(etcd.y - (title.y + title.height)).toFixed(0)} px)`);
    assert.ok(data.y + data.height - (etcd.y + etcd.height) <= CONTAINER_PADDING + 1, 'the bottom hugs the member');
    if (toContainer) {
      // The arrow runs on to the lowered border.
      const arrow = all.get('api-to-data')!;
      const end = arrow.points.at(-1)!;
      assert.ok(arrow.y + end[1]! < data.y && arrow.y + end[1]! >= data.y - 6 && arrow.x + end[0]! > data.x && arrow.x + end[0]! < data.x + data.width, 'the arrow ends on the top border');
    }
    assert.deepEqual(kinds(elements), []);
  }
});

test('two arrows crossing in an X between aligned pairs share no line: the leg that would lie on the other\'s moves along its node\'s side (graphviz-switch)', () => {
  for (const direction of ['LR', 'TB'] as const) {
    const elements = build({
      layout: { direction },
      nodes: [
        { id: 'a', shape: 'circle' },
        { id: 'b', shape: 'circle' },
        { id: 'A', shape: 'diamond' },
        { id: 'B', shape: 'diamond' },
      ],
      edges: ['a -> A', 'a -> B', 'b -> B', 'b -> A'],
    });
    assert.deepEqual(kinds(elements), [], direction);
    // Every arrow end on a node stays 16 px from the others there.
    const ends = new Map<string, Array<[number, number]>>();
    for (const arrow of elements.filter((e) => e.type === 'arrow')) {
      for (const [binding, point] of [[arrow.startBinding, arrow.points[0]!], [arrow.endBinding, arrow.points.at(-1)!]] as const) {
        const list = ends.get(binding!.elementId) ?? [];
        list.push([arrow.x + point[0]!, arrow.y + point[1]!]);
        ends.set(binding!.elementId, list);
      }
    }
    for (const [node, list] of ends) for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) assert.ok(Math.hypot(list[i]![0] - list[j]![0], list[i]![1] - list[j]![1]) >= 16, `${direction}: ends on ${node} 16 px apart`);
  }
});

test('an arrow from a node level with the foot of a tall container beside it runs straight across to its border, and does not read as the start of the flow (cpython-stack-resize)', () => {
  const { spec } = importDot(fs.readFileSync(new URL('../../bench/quality/real/cpython-stack-resize.dot', import.meta.url), 'utf8'));
  const elements = build(spec);
  const all = byId(elements);
  const [arrow, chunk] = [all.get('new_previous-to-cluster_older_chunk')!, all.get('cluster_older_chunk')!];
  const [first, last] = [arrow.points[0]!, arrow.points.at(-1)!];
  assert.equal(arrow.points.length, 2, 'one straight stretch');
  assert.equal(first[1], last[1], 'level');
  const endX = arrow.x + last[0]!;
  assert.ok(Math.abs(endX - chunk.x) <= 6 || Math.abs(endX - (chunk.x + chunk.width)) <= 6, 'on the container\'s side');
  assert.deepEqual(kinds(elements), [], '"previous" points sideways: the flow starts at "top frame"');
});

test('an arrowhead at the start of an arrow gets the room one at the end gets: its leg is as long, so the editor draws it as large (graphviz-ldbxtried, istio-overview)', () => {
  const elements = byId(build({
    nodes: [{ id: 'a', label: 'Gateway' }, { id: 'b', label: 'Auth' }, { id: 'c', label: 'Store' }],
    edges: [{ from: 'a', to: 'b', startArrowhead: 'arrow', arrowhead: 'none' }, { from: 'a', to: 'c', startArrowhead: 'arrow' }],
  }));
  const leg = (points: number[][], at: number, next: number) => Math.hypot(points[at]![0]! - points[next]![0]!, points[at]![1]! - points[next]![1]!);
  const toB = elements.get('a-to-b')!.points as number[][];
  const toC = elements.get('a-to-c')!.points as number[][];
  assert.ok(toB.length >= 3 && toC.length >= 3, 'both arrows bend');
  const endLeg = leg(toC, toC.length - 1, toC.length - 2);
  assert.equal(leg(toB, 0, 1), endLeg);
  assert.equal(leg(toC, 0, 1), endLeg);
});

test('an invisible edge takes no end from the arrows that are drawn: beside one, an arrow still leaves and reaches the middle of its nodes\' sides, straight (cpython-stack-resize)', () => {
  // Down the flow, between two layers, and across it, between two nodes of one rank (routed round the boxes).
  const cases = [
    { nodes: [{ id: 'a', label: 'top frame' }, { id: 'b', label: 'newer frame' }], edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'b', style: 'invisible' }] },
    { nodes: [{ id: 'a', label: 'top frame' }, { id: 'b', label: 'stack_top' }], edges: [{ from: 'a', to: 'b', style: 'invisible', constraint: false }, { from: 'b', to: 'a', constraint: false }], layout: { sameRank: [['a', 'b']] } },
  ];
  for (const spec of cases) {
    const elements = build(spec);
    const arrows = elements.filter((e) => e.type === 'arrow');
    assert.equal(arrows.length, 1, 'the invisible edge draws nothing');
    const arrow = arrows[0]!;
    assert.equal(arrow.points.length, 2, `${arrow.id} runs straight: ${JSON.stringify(arrow.points)}`);
    const start = byId(elements).get(arrow.startBinding.elementId)!;
    const [x, y] = [arrow.x, arrow.y];
    const middle = arrow.points[1][0] === 0 ? [start.x + start.width / 2, x] : [centreY(start), y];
    assert.ok(Math.abs(middle[0]! - middle[1]!) < 1, `${arrow.id} leaves the middle of its node's side`);
  }
});

test('an arrow that steps across just before its head steps earlier, so that its last leg draws a full head, where nothing is in the way (wormhole-mailbox)', () => {
  // a's right side at y 50 to b's left side at y 72: the step 12 px before b left a 4-px head on an 8-px leg.
  const boxes = [{ x: 0, y: 0, width: 100, height: 100 }, { x: 200, y: 30, width: 100, height: 100 }, { x: 150, y: 200, width: 30, height: 30 }];
  const step = (): Array<[number, number]> => [[104, 50], [188, 50], [188, 72], [196, 72]];
  const routes: Array<Array<[number, number]> | null> = [step()];
  lengthenHeadLegs(boxes, [0], [1], [undefined], [false], routes, [-1, -1, -1]);
  assert.deepEqual(routes[0], [[104, 50], [164, 50], [164, 72], [196, 72]]);
  // A box where the step would go, another arrow along it, no head at that end, or a label on the arrow: it stays.
  const blocked = [step()];
  lengthenHeadLegs([...boxes.slice(0, 2), { x: 150, y: 40, width: 30, height: 60 }], [0], [1], [undefined], [false], blocked, [-1, -1, -1]);
  assert.deepEqual(blocked[0], step());
  const along: Array<Array<[number, number]> | null> = [step(), [[164, 0], [164, 150]]];
  lengthenHeadLegs(boxes, [0, 2], [1, 2], [undefined, 'none'], [false, false], along, [-1, -1, -1]);
  assert.deepEqual(along[0], step());
  const headless = [step()];
  lengthenHeadLegs(boxes, [0], [1], ['start'], [false], headless, [-1, -1, -1]);
  assert.deepEqual(headless[0], step());
  const labelled = [step()];
  lengthenHeadLegs(boxes, [0], [1], [undefined], [true], labelled, [-1, -1, -1]);
  assert.deepEqual(labelled[0], step());
});
