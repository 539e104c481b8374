/**
 * Graphviz dot as a layout function: the same contract as our engine
 * (LayoutInput → LayoutResult), so that sceneFromSpec draws dot's geometry with
 * exactly our element builders: same node sizes, labels and renderer.
 *
 * How the graph is given to dot:
 * - every node is a fixed-size box of its LayoutNode size (1 px = 1 pt, 72 per
 *   inch), declared in the author's order, so that dot's depth-first cycle
 *   breaking and initial ordering see the order the author wrote;
 * - a container (a node that is some node's parent) is a cluster whose label is
 *   a fixed-size table of the container's header size, at the top, with our
 *   container padding as the cluster's margin;
 * - an edge label is a fixed-size table of the label's size;
 * - the gaps are our engine's (40 px between neighbours, 80 px between layers),
 *   `newrank=true` ranks clusters with the rest of the graph (the old ranking
 *   ranks each cluster on its own and reverses edges the author wrote forward);
 * - dot cannot end an edge on a cluster: an edge to or from a container is
 *   drawn to the container's first leaf (in the author's order) with
 *   `compound=true` and lhead/ltail, so dot clips the curve at the cluster's
 *   border. The leaf's rank then stands in for the container's.
 *
 * How dot's answer comes back: node centres from `pos` (y flipped), cluster
 * boxes from `bb`, each curve's bezier control points (`pos`) sampled into a
 * polyline whose ends lie on the endpoint boxes, the label centre from `lp`.
 * Dot puts a label beside its curve; an editor's arrow label sits on the
 * arrow, so the curve is bent smoothly, near the label, to pass through the
 * label's centre (into the room dot reserved for the label).
 */
import { spawnSync } from 'node:child_process';
import { CONTAINER_PADDING } from '../../src/domain/layout/containers/containers.ts';
import { NODE_HALF_GAP } from '../../src/domain/layout/layered.ts';
import { LAYER_GAP } from '../../src/domain/layout/routing/routing.ts';
import type { Box, LayoutInput, LayoutResult } from '../../src/domain/layout/types.ts';

type Point = [number, number];

const POINTS_PER_INCH = 72;
/** Our engine's gaps between neighbours in a layer and between layers, and its container padding, in px. */
const NODE_GAP = 2 * NODE_HALF_GAP;
const RANK_GAP = LAYER_GAP;
const CLUSTER_MARGIN = CONTAINER_PADDING;
const SAMPLES_PER_BEZIER = 12;
/**
 * The editor draws an arrowhead at most half as long as the arrow's last
 * segment (25 px for the default head): the sampled curve keeps no point this
 * close to its ends, so heads are drawn at full size.
 */
const END_SEGMENT = 50;
/** Sampled points this close to the chord of their neighbours are dropped. */
const FLATNESS = 0.5;

export const DOT = process.env.DOT ?? 'dot';

export function dotLayout(input: LayoutInput): LayoutResult {
  const graph = dotGraph(input);
  const run = spawnSync(DOT, ['-Tjson'], { input: graph.source, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`dot exited with ${run.status}: ${run.stderr}`);
  return fromDotJson(input, graph, JSON.parse(run.stdout) as DotJson);
}

/** Whether `dot` runs; when it does not, Debian's graphviz is installed, as CI installs its packages. */
export function ensureDot(): void {
  if (spawnSync(DOT, ['-V']).status === 0) return;
  console.log("# dot is missing: installing Debian's graphviz");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'graphviz']]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; install graphviz (dot) and run again`);
  }
}

interface DotGraph {
  source: string;
  /** Node id → dot name (`n3`, or `cluster_3` for a container). */
  names: Map<string, string>;
  containers: Set<string>;
}

export function dotGraph(input: LayoutInput): DotGraph {
  const ids = new Set(input.nodes.map((n) => n.id));
  const parentOf = new Map<string, string>();
  for (const node of input.nodes) if (node.parent && ids.has(node.parent) && node.parent !== node.id) parentOf.set(node.id, node.parent);
  const containers = new Set(parentOf.values());
  const names = new Map(input.nodes.map((n, i) => [n.id, containers.has(n.id) ? `cluster_${i}` : `n${i}`]));
  const children = new Map<string, string[]>();
  for (const node of input.nodes) {
    const parent = parentOf.get(node.id);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), node.id]);
  }
  const byId = new Map(input.nodes.map((n) => [n.id, n]));
  const inches = (px: number) => (Math.max(1, px) / POINTS_PER_INCH).toFixed(4);

  const lines = [
    'digraph {',
    `  graph [rankdir=${input.direction}, newrank=true, compound=true, nodesep=${inches(NODE_GAP)}, ranksep=${inches(RANK_GAP)}];`,
    '  node [shape=box, fixedsize=true, label=""];',
    '  edge [dir=none];',
  ];
  for (const node of input.nodes) {
    if (!containers.has(node.id)) lines.push(`  ${names.get(node.id)} [width=${inches(node.width)}, height=${inches(node.height)}];`);
  }
  const cluster = (id: string, indent: string): void => {
    const node = byId.get(id)!;
    lines.push(`${indent}subgraph ${names.get(id)} {`, `${indent}  label=${fixedSizeLabel(node.width, node.height)}; labelloc=t; margin=${CLUSTER_MARGIN};`);
    for (const child of children.get(id) ?? []) {
      if (containers.has(child)) cluster(child, `${indent}  `);
      else lines.push(`${indent}  ${names.get(child)};`);
    }
    lines.push(`${indent}}`);
  };
  for (const node of input.nodes) if (containers.has(node.id) && !parentOf.has(node.id)) cluster(node.id, '  ');

  const isInside = (id: string, container: string): boolean => {
    for (let p = parentOf.get(id); p !== undefined; p = parentOf.get(p)) if (p === container) return true;
    return false;
  };
  /** The first leaf inside a container, in the author's order: where dot ends an edge meant for the container. */
  const anchorOf = (id: string): string => {
    let current = id;
    while (containers.has(current)) current = children.get(current)![0]!;
    return current;
  };
  input.edges.forEach((edge, index) => {
    if (!ids.has(edge.from) || !ids.has(edge.to)) return;
    const attributes = [`id=e${index}`];
    const tail = anchorOf(edge.from);
    const head = anchorOf(edge.to);
    if (containers.has(edge.from) && !isInside(edge.to, edge.from)) attributes.push(`ltail=${names.get(edge.from)}`);
    if (containers.has(edge.to) && !isInside(edge.from, edge.to)) attributes.push(`lhead=${names.get(edge.to)}`);
    if (edge.labelWidth && edge.labelHeight) attributes.push(`label=${fixedSizeLabel(edge.labelWidth, edge.labelHeight)}`);
    // The author's layout hints reach dot too, so both layouts are asked the same thing.
    if (edge.minLength !== undefined && edge.minLength !== 1) attributes.push(`minlen=${edge.minLength}`);
    if (edge.constraint === false) attributes.push('constraint=false');
    lines.push(`  ${names.get(tail)} -> ${names.get(head)} [${attributes.join(', ')}];`);
  });
  for (const group of input.sameRank ?? []) {
    const members = group.filter((id) => ids.has(id) && !containers.has(id)).map((id) => names.get(id)!);
    if (members.length > 1) lines.push(`  { rank=same; ${members.join('; ')}; }`);
  }
  lines.push('}');
  return { source: lines.join('\n'), names, containers };
}

/** A label dot sizes exactly: an empty HTML table of the given size, in points. */
function fixedSizeLabel(width: number, height: number): string {
  const size = (px: number) => Math.max(1, Math.ceil(px));
  return `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0" FIXEDSIZE="TRUE" WIDTH="${size(width)}" HEIGHT="${size(height)}"><TR><TD></TD></TR></TABLE>>`;
}

interface DotJson {
  bb: string;
  objects?: Array<{ name: string; pos?: string; bb?: string }>;
  edges?: Array<{ id?: string; pos?: string; lp?: string }>;
}

function fromDotJson(input: LayoutInput, graph: DotGraph, json: DotJson): LayoutResult {
  const top = numbers(json.bb)[3]!;
  const flip = ([x, y]: Point): Point => [x, top - y];
  const objects = new Map((json.objects ?? []).map((o) => [o.name, o]));
  const result: LayoutResult = { nodes: {}, edges: {} };
  for (const node of input.nodes) {
    const drawn = objects.get(graph.names.get(node.id)!);
    if (!drawn) throw new Error(`dot did not place node "${node.id}"`);
    if (graph.containers.has(node.id)) {
      const [x1, y1, x2, y2] = numbers(drawn.bb!) as [number, number, number, number];
      result.nodes[node.id] = { x: x1, y: top - y2, width: x2 - x1, height: y2 - y1 };
    } else {
      const [cx, cy] = flip(numbers(drawn.pos!) as Point);
      result.nodes[node.id] = { x: cx - node.width / 2, y: cy - node.height / 2, width: node.width, height: node.height };
    }
  }
  const drawnEdges = new Map((json.edges ?? []).map((e) => [e.id, e]));
  input.edges.forEach((edge, index) => {
    const drawn = drawnEdges.get(`e${index}`);
    if (!drawn?.pos) return;
    const from = result.nodes[edge.from]!;
    const to = result.nodes[edge.to]!;
    const points = endOnBoxes(sampleSpline(controlPoints(drawn.pos).map(flip)), from, to);
    // A self-loop lies wholly within END_SEGMENT of its ends when it is small: it keeps the middle half of its length.
    const clearance = edge.from === edge.to ? Math.min(END_SEGMENT, arcLengths(points).at(-1)! / 4) : END_SEGMENT;
    if (drawn.lp) {
      const label = flip(numbers(drawn.lp) as Point);
      const bent = bendThrough(points, label);
      result.edges[edge.id] = { points: simplify(bent.points, bent.run, clearance), label: { x: label[0], y: label[1] } };
    } else {
      result.edges[edge.id] = { points: simplify(points, [], clearance) };
    }
  });
  return result;
}

function numbers(text: string): number[] {
  return text.split(',').map(Number);
}

/** The bezier control points of an edge's `pos` (arrowhead end points, `s,…`/`e,…`, are skipped; edges are drawn without them). */
function controlPoints(pos: string): Point[] {
  // An edge dot draws in several pieces has `;`-separated splines: they join end to end.
  return pos
    .split(';')
    .flatMap((spline) => spline.trim().split(/\s+/))
    .filter((token) => token !== '' && !token.startsWith('s,') && !token.startsWith('e,'))
    .map((token) => numbers(token) as Point);
}

/** A piecewise cubic bezier (3n+1 control points) as a polyline. */
function sampleSpline(control: Point[]): Point[] {
  const points: Point[] = [control[0]!];
  for (let i = 0; i + 3 < control.length; i += 3) {
    const [p0, p1, p2, p3] = [control[i]!, control[i + 1]!, control[i + 2]!, control[i + 3]!];
    for (let k = 1; k <= SAMPLES_PER_BEZIER; k++) {
      const t = k / SAMPLES_PER_BEZIER;
      const u = 1 - t;
      const a = u * u * u;
      const b = 3 * u * u * t;
      const c = 3 * u * t * t;
      const d = t * t * t;
      points.push([a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]]);
    }
  }
  return points;
}

/**
 * Dot clips a curve at its endpoints' boxes (or at a cluster's border with
 * lhead/ltail). Where it did not (an edge between a container and a node
 * inside it, where dot ignores lhead/ltail), the polyline is cut where it
 * leaves the source's box and where it enters the target's.
 */
function endOnBoxes(points: Point[], from: Box, to: Box): Point[] {
  let route = points;
  const start = firstExit(route, from);
  if (start) route = [start.point, ...route.slice(start.index + 1)];
  const reversed = [...route].reverse();
  const end = firstExit(reversed, to);
  if (end) route = [...reversed.slice(end.index + 1)].reverse().concat([end.point]);
  return route;
}

const SLACK = 0.5;
const inside = ([x, y]: Point, box: Box) => x > box.x + SLACK && x < box.x + box.width - SLACK && y > box.y + SLACK && y < box.y + box.height - SLACK;

/** Where the polyline, starting inside the box, first leaves it; null when it starts outside or never leaves. */
function firstExit(points: Point[], box: Box): { index: number; point: Point } | null {
  if (!inside(points[0]!, box)) return null;
  let index = 0;
  while (index + 1 < points.length && inside(points[index + 1]!, box)) index++;
  if (index + 1 >= points.length) return null;
  const [a, b] = [points[index]!, points[index + 1]!];
  // Bisect the segment for the border crossing.
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (inside([a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid], box)) lo = mid;
    else hi = mid;
  }
  return { index, point: [a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi] };
}

/** Half the length of the short run, centred on the label, that is moved onto the label whole. */
const LABEL_RUN = 2;

/**
 * Bends the polyline so that it passes through `label`: a short run around the
 * curve's point nearest to the label is moved onto the label whole (so the
 * label lies exactly on a segment, where the editor's label goes), and the
 * curve on either side follows with a smooth (cosine) falloff along its length;
 * the ends stay where they are. Returns the points and the run's two ends,
 * which simplification must keep.
 */
function bendThrough(points: Point[], label: Point): { points: Point[]; run: Point[] } {
  const lengths = arcLengths(points);
  const total = lengths.at(-1)!;
  let nearest = { distance: Infinity, at: 0, point: points[0]! };
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i]!, points[i + 1]!];
    const length = distance(a, b);
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((label[0] - a[0]) * (b[0] - a[0]) + (label[1] - a[1]) * (b[1] - a[1])) / (length * length)));
    const point: Point = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    const d = distance(point, label);
    if (d < nearest.distance) nearest = { distance: d, at: lengths[i]! + t * length, point };
  }
  if (total <= 2 * LABEL_RUN) return { points, run: [] };
  const runStart = Math.min(Math.max(nearest.at - LABEL_RUN, 0), total - 2 * LABEL_RUN);
  const runEnd = runStart + 2 * LABEL_RUN;
  const shift: Point = [label[0] - nearest.point[0], label[1] - nearest.point[1]];
  const reach = Math.min(Math.max(40, 1.5 * nearest.distance), runStart, total - runEnd);
  const moved = (p: Point, at: number): Point => {
    const along = at < runStart ? runStart - at : at > runEnd ? at - runEnd : 0;
    const weight = along === 0 ? 1 : along >= reach ? 0 : Math.cos((Math.PI / 2) * (along / reach)) ** 2;
    return [p[0] + shift[0] * weight, p[1] + shift[1] * weight];
  };
  const run = [moved(pointAt(points, lengths, runStart), runStart), moved(pointAt(points, lengths, runEnd), runEnd)];
  const before: Point[] = [];
  const after: Point[] = [];
  for (let i = 1; i + 1 < points.length; i++) {
    if (lengths[i]! < runStart) before.push(moved(points[i]!, lengths[i]!));
    else if (lengths[i]! > runEnd) after.push(moved(points[i]!, lengths[i]!));
  }
  return { points: [points[0]!, ...before, ...run, ...after, points.at(-1)!], run };
}

function arcLengths(points: Point[]): number[] {
  const lengths = [0];
  for (let i = 1; i < points.length; i++) lengths.push(lengths[i - 1]! + distance(points[i - 1]!, points[i]!));
  return lengths;
}

/** The point `at` along the polyline. */
function pointAt(points: Point[], lengths: number[], at: number): Point {
  let i = 0;
  while (i + 2 < points.length && lengths[i + 1]! < at) i++;
  const [a, b] = [points[i]!, points[i + 1]!];
  const length = lengths[i + 1]! - lengths[i]!;
  const t = length === 0 ? 0 : (at - lengths[i]!) / length;
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

/**
 * Drops the points within `clearance` (END_SEGMENT) of either end and those on
 * a straight run (Douglas–Peucker), keeping `pinned` points.
 */
function simplify(points: Point[], pinned: Point[] = [], clearance = END_SEGMENT): Point[] {
  const first = points[0]!;
  const last = points.at(-1)!;
  const middle = points.slice(1, -1).filter((p) => pinned.includes(p) || (distance(p, first) >= clearance && distance(p, last) >= clearance));
  const kept = [first, ...middle, last];
  const keep = new Uint8Array(kept.length);
  kept.forEach((p, i) => (keep[i] = Number(i === 0 || i === kept.length - 1 || pinned.includes(p))));
  const visit = (from: number, to: number): void => {
    let worst = -1;
    let worstDistance = FLATNESS;
    for (let i = from + 1; i < to; i++) {
      const d = distanceToLine(kept[i]!, kept[from]!, kept[to]!);
      if (d > worstDistance) {
        worst = i;
        worstDistance = d;
      }
    }
    if (worst < 0) return;
    keep[worst] = 1;
    visit(from, worst);
    visit(worst, to);
  };
  visit(0, kept.length - 1);
  return kept.filter((_, i) => keep[i]);
}

function distanceToLine(p: Point, a: Point, b: Point): number {
  const length = distance(a, b);
  if (length === 0) return distance(p, a);
  return Math.abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / length;
}

function distance(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}
