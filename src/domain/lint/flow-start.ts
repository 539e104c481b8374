import { type Box, boxOfPoints, type Point } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { ancestorsOf, describeShape, type Path, type SceneModel, type Shape } from './scene-model.ts';
import { FLOW_START_SHARE } from './thresholds.ts';

type Flow = 'down' | 'up' | 'right' | 'left';

/** An arrow between two nodes, read from its start to its end (as the layout ranked it, whatever heads it draws). */
const joinsTwo = (path: Path): path is Path & { ends: [Shape, Shape] } => path.type === 'arrow' && path.ends[0] !== null && path.ends[1] !== null && path.ends[0].owner !== path.ends[1].owner;

/**
 * A drawing whose flow does not start where a reader starts reading it: the
 * first node, in the scene's order, with arrows out and none in is not within
 * the first quarter, along the flow, of the part of the drawing it is joined
 * to (by arrows, or by containment: a node on its own, or another flow, drawn
 * before it is not a late start). Arrows are read from start
 * to end (the way a layout ranks them, whatever heads they draw). A generated
 * scene lists nodes in the order the author wrote them, but containers first
 * (drawn behind what they hold): a container is read where its first node is.
 * A side input is passed over: a node none of whose arrows leads to a node it
 * starts the longest chain to (`images → sphinx` where `header → doxygen → xml
 * → sphinx` is longer); a layout rightly draws it beside the node it feeds.
 * So is a node whose arrows all run across the flow, as drawn (each ends
 * level with the node, within its extent along the flow: cpython-stack-resize's
 * "previous", pointing sideways at the other stack chunk from the foot of its
 * own): it annotates, it does not start the flow.
 * The scene does not say its direction: the flow runs the way most arrows go,
 * from their start node's centre to their end node's, by the larger of the
 * two moves; with no strict majority there is no flow and nothing is
 * reported. One issue at most.
 */
export function lateFlowStart(model: SceneModel): LintIssue[] {
  const arrows = model.paths.filter(joinsTwo);
  const flow = majorityFlow(arrows);
  if (!flow) return [];
  const order = readingOrder(model);
  const fed = new Set(arrows.map((a) => a.ends[1].owner));
  const depth = chainDepths(order, arrows);
  const startsChain = new Set(arrows.filter((a) => depth.get(a.ends[1].owner) === 1 && !runsAcross(a, flow)).map((a) => a.ends[0].owner));
  const start = order.find((s) => startsChain.has(s) && !fed.has(s));
  if (!start) return [];
  const share = shareAlong(flow, extentOf(connectedTo(start, order, arrows), arrows), start.box);
  if (share <= FLOW_START_SHARE) return [];
  return [
    {
      kind: 'late_flow_start',
      elementIds: [start.id],
      message: `the flow (${flow}) starts at ${describeShape(start)}, the first node with arrows out and none in, but it begins ${Math.round(share * 100)} % of the way ${flow} the part of the drawing it is joined to (within the first ${FLOW_START_SHARE * 100} % reads as the start)`,
    },
  ];
}

/** The nodes joined to `start` by arrows either way, or by one holding the other. */
function connectedTo(start: Shape, nodes: Shape[], arrows: Array<Path & { ends: [Shape, Shape] }>): Set<Shape> {
  const group = new Map(nodes.map((n) => [n, n]));
  const find = (n: Shape): Shape => {
    let root = n;
    while (group.get(root) !== root) root = group.get(root)!;
    group.set(n, root);
    return root;
  };
  const join = (a: Shape, b: Shape) => group.has(a) && group.has(b) && group.set(find(a), find(b));
  for (const a of arrows) join(a.ends[0].owner, a.ends[1].owner);
  for (const n of nodes) if (n.parent) join(n, n.parent.owner);
  return new Set(nodes.filter((n) => find(n) === find(start)));
}

/** The box holding the nodes and the arrows between them. */
function extentOf(nodes: Set<Shape>, arrows: Array<Path & { ends: [Shape, Shape] }>): Box {
  return boxOfPoints([...[...nodes].flatMap((n) => corners(n.box)), ...arrows.filter((a) => nodes.has(a.ends[0].owner)).flatMap((a) => a.points)]);
}

/** Nodes and containers as a reader meets them: nodes in scene order, each container where its first node is (before it). */
function readingOrder(model: SceneModel): Shape[] {
  const nodes = model.shapes.filter((s) => s.owner === s && s.kind !== 'image');
  const at = new Map(nodes.map((s) => [s, s.isContainer ? Infinity : s.index]));
  for (const node of nodes) {
    if (node.isContainer) continue;
    for (const container of ancestorsOf(node)) at.set(container, Math.min(at.get(container) ?? Infinity, node.index));
  }
  return nodes.sort((a, b) => at.get(a)! - at.get(b)! || Number(b.isContainer) - Number(a.isContainer) || a.index - b.index);
}

/**
 * Each node's depth: the length of the longest chain of arrows reaching it,
 * arrows that close a cycle (found depth-first from the nodes in reading
 * order) left out.
 */
function chainDepths(order: Shape[], arrows: Array<Path & { ends: [Shape, Shape] }>): Map<Shape, number> {
  const next = new Map<Shape, Shape[]>();
  const push = (map: Map<Shape, Shape[]>, from: Shape, to: Shape) => (map.get(from) ?? map.set(from, []).get(from)!).push(to);
  for (const a of arrows) push(next, a.ends[0].owner, a.ends[1].owner);
  // Depth-first, iteratively: finishing order reversed is a topological order of the arrows kept.
  const state = new Map<Shape, 'open' | 'done'>();
  const finished: Shape[] = [];
  const kept = new Map<Shape, Shape[]>();
  for (const root of order) {
    if (state.has(root)) continue;
    state.set(root, 'open');
    const stack: Array<{ node: Shape; at: number }> = [{ node: root, at: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const successor = next.get(top.node)?.[top.at++];
      if (successor === undefined) {
        state.set(top.node, 'done');
        finished.push(top.node);
        stack.pop();
      } else if (state.get(successor) !== 'open') {
        push(kept, top.node, successor);
        if (!state.has(successor)) {
          state.set(successor, 'open');
          stack.push({ node: successor, at: 0 });
        }
      }
    }
  }
  const depth = new Map<Shape, number>();
  for (const node of finished.reverse()) {
    for (const successor of kept.get(node) ?? []) depth.set(successor, Math.max(depth.get(successor) ?? 0, (depth.get(node) ?? 0) + 1));
  }
  return depth;
}

const corners = (box: Box): Point[] => [
  [box.x1, box.y1],
  [box.x2, box.y2],
];
const centre = (box: Box): Point => [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2];

/** Whether the arrow, as drawn, ends level with where it starts: its last point lies within its start node's extent along the flow. */
function runsAcross(arrow: Path & { ends: [Shape, Shape] }, flow: Flow): boolean {
  const [x, y] = arrow.points[arrow.points.length - 1]!;
  const { box } = arrow.ends[0].owner;
  return flow === 'down' || flow === 'up' ? y > box.y1 && y < box.y2 : x > box.x1 && x < box.x2;
}

/** The direction more than half of the arrows run, or null. */
function majorityFlow(arrows: Array<Path & { ends: [Shape, Shape] }>): Flow | null {
  const votes = new Map<Flow, number>();
  for (const arrow of arrows) {
    const [[fx, fy], [tx, ty]] = [centre(arrow.ends[0].owner.box), centre(arrow.ends[1].owner.box)];
    const [dx, dy] = [tx - fx, ty - fy];
    if (dx === 0 && dy === 0) continue;
    const flow: Flow = Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 'down' : 'up') : dx > 0 ? 'right' : 'left';
    votes.set(flow, (votes.get(flow) ?? 0) + 1);
  }
  const total = [...votes.values()].reduce((a, b) => a + b, 0);
  const [best, count] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  return best && count * 2 > total ? best : null;
}

/** Where the box's leading side lies along the flow, as a share of the drawing's length along it (0: at its start). */
function shareAlong(flow: Flow, drawing: Box, box: Box): number {
  const length = flow === 'down' || flow === 'up' ? drawing.y2 - drawing.y1 : drawing.x2 - drawing.x1;
  if (length <= 0) return 0;
  const offset = flow === 'down' ? box.y1 - drawing.y1 : flow === 'up' ? drawing.y2 - box.y2 : flow === 'right' ? box.x1 - drawing.x1 : drawing.x2 - box.x2;
  return offset / length;
}
