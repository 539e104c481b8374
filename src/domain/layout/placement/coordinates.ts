/**
 * Horizontal coordinates by Brandes and Köpf: four alignments (up/down × left/right)
 * line nodes up with a median neighbour into vertical blocks, each block is
 * compacted against its left neighbours, and the final position is the mean of
 * the two middle candidates. Long edges come out straight, nodes centred over
 * their neighbours, and every layer keeps its order with the required gaps.
 *
 * Alignment is by port, as in ELK: a node joins a block shifted so that the
 * ports of the edge that aligns it sit on one vertical line, so an aligned edge
 * is straight even when it leaves its node off-centre. Nodes may be asymmetric
 * (a self-loop widens one side): `leftExtent` and `rightExtent` are measured
 * from the node's centre line.
 */

export interface HorizontalInput {
  layers: Int32Array[];
  position: Int32Array;
  /** Proper edges: upper and lower end, and the port offsets from each end's centre line. */
  edgeUpper: Int32Array;
  edgeLower: Int32Array;
  upperOffset: Float64Array;
  lowerOffset: Float64Array;
  /** How many input edges each proper edge carries (more than one on a shared trunk). */
  multiplicity: Float64Array;
  /** Ids of the edges into each node from above / out of it downwards, in CSR form. */
  upStart: Int32Array;
  upEdges: Int32Array;
  downStart: Int32Array;
  downEdges: Int32Array;
  isDummy: Uint8Array;
  leftExtent: Float64Array;
  rightExtent: Float64Array;
  /** Half of the gap a node wants beside it (nodes and edge lines want different room). */
  halfGap: Float64Array;
}

export function assignHorizontalCoordinates(input: HorizontalInput): Float64Array {
  const n = input.position.length;
  const conflicts = markTypeOneConflicts(input);
  const candidates: Float64Array[] = [];
  for (const vertical of ['up', 'down'] as const) {
    for (const horizontal of ['left', 'right'] as const) {
      let layering = vertical === 'up' ? input.layers : [...input.layers].reverse();
      const mirrored = horizontal === 'right';
      if (mirrored) layering = layering.map((layer) => layer.slice().reverse());
      const { root, shift } = alignVertically(input, layering, vertical === 'up', mirrored, conflicts);
      const xs = compactHorizontally(input, layering, root, shift, mirrored);
      if (mirrored) for (let v = 0; v < n; v++) xs[v] = -xs[v]!;
      candidates.push(xs);
    }
  }
  alignToNarrowest(input, candidates);
  const x = new Float64Array(n);
  const values = [0, 0, 0, 0];
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 4; k++) values[k] = candidates[k]![v]!;
    values.sort((a, b) => a - b);
    x[v] = (values[1]! + values[2]!) / 2;
  }
  enforceSeparation(input, x);
  return x;
}

/** The narrowest any layer can be: its nodes side by side at their gaps. */
export function widestLayerSpan(input: HorizontalInput): number {
  let widest = 0;
  for (const layer of input.layers) {
    if (layer.length === 0) continue;
    let span = input.leftExtent[layer[0]!]! + input.rightExtent[layer[layer.length - 1]!]!;
    for (let i = 1; i < layer.length; i++) span += separation(input, layer[i - 1]!, layer[i]!);
    widest = Math.max(widest, span);
  }
  return widest;
}

export function drawingWidth(input: HorizontalInput, x: Float64Array): number {
  let min = Infinity;
  let max = -Infinity;
  for (let v = 0; v < x.length; v++) {
    min = Math.min(min, x[v]! - input.leftExtent[v]!);
    max = Math.max(max, x[v]! + input.rightExtent[v]!);
  }
  return max - min;
}

function separation(input: HorizontalInput, left: number, right: number): number {
  return input.rightExtent[left]! + input.leftExtent[right]! + input.halfGap[left]! + input.halfGap[right]!;
}

/** How far node v of `layer` may move, its neighbours' room kept: from its left neighbour's side to its right one's. */
function roomBetweenNeighbours(input: HorizontalInput, x: Float64Array, layer: Int32Array, v: number): [number, number] {
  const i = input.position[v]!;
  const least = i > 0 ? x[layer[i - 1]!]! + separation(input, layer[i - 1]!, v) : -Infinity;
  const most = i + 1 < layer.length ? x[layer[i + 1]!]! - separation(input, v, layer[i + 1]!) : Infinity;
  return [least, most];
}

/** The layer each node lies in. */
function layersByNode(layers: readonly Int32Array[]): Map<number, Int32Array> {
  const layerOf = new Map<number, Int32Array>();
  for (const layer of layers) for (const v of layer) layerOf.set(v, layer);
  return layerOf;
}

/** Type 1 conflicts: a non-inner segment crossing an inner one (dummy to dummy); the inner segment wins. */
function markTypeOneConflicts(input: HorizontalInput): Set<number> {
  const { layers, position, upStart, upEdges, edgeUpper, isDummy } = input;
  const n = position.length;
  const conflicts = new Set<number>();
  for (let l = 1; l < layers.length; l++) {
    const previousLength = layers[l - 1]!.length;
    const layer = layers[l]!;
    let k0 = 0;
    let scanPos = 0;
    for (let i = 0; i < layer.length; i++) {
      const v = layer[i]!;
      let inner = -1;
      if (isDummy[v]) {
        for (let k = upStart[v]!; k < upStart[v + 1]!; k++) {
          const u = edgeUpper[upEdges[k]!]!;
          if (isDummy[u]) {
            inner = u;
            break;
          }
        }
      }
      const k1 = inner >= 0 ? position[inner]! : previousLength;
      if (inner >= 0 || i === layer.length - 1) {
        for (let s = scanPos; s <= i; s++) {
          const scanNode = layer[s]!;
          for (let k = upStart[scanNode]!; k < upStart[scanNode + 1]!; k++) {
            const u = edgeUpper[upEdges[k]!]!;
            const uPos = position[u]!;
            if ((uPos < k0 || k1 < uPos) && !(isDummy[u] && isDummy[scanNode])) {
              conflicts.add(Math.min(u, scanNode) * n + Math.max(u, scanNode));
            }
          }
        }
        scanPos = i + 1;
        k0 = k1;
      }
    }
  }
  return conflicts;
}

/**
 * Blocks: each node joins the block of a median neighbour in the previous layer
 * of the sweep unless that would cross an earlier alignment or a type 1 conflict.
 * `shift` is each node's offset from its block's line, so that the aligning
 * edge's two ports line up (in the mirrored frame offsets change sign).
 */
function alignVertically(
  input: HorizontalInput,
  layering: Int32Array[],
  fromAbove: boolean,
  mirrored: boolean,
  conflicts: Set<number>,
): { root: Int32Array; shift: Float64Array } {
  const n = input.position.length;
  const root = new Int32Array(n);
  const align = new Int32Array(n);
  const shift = new Float64Array(n);
  const pos = new Int32Array(n);
  for (const layer of layering) {
    layer.forEach((v, i) => {
      root[v] = v;
      align[v] = v;
      pos[v] = i;
    });
  }
  const start = fromAbove ? input.upStart : input.downStart;
  const list = fromAbove ? input.upEdges : input.downEdges;
  const otherEnd = fromAbove ? input.edgeUpper : input.edgeLower;
  const otherOffset = fromAbove ? input.upperOffset : input.lowerOffset;
  const ownOffset = fromAbove ? input.lowerOffset : input.upperOffset;
  const sign = mirrored ? -1 : 1;
  const edges: number[] = [];
  for (const layer of layering) {
    let previousIndex = -1;
    for (const v of layer) {
      edges.length = 0;
      // A trunk dummy (one with branches) lines up with the next dummy of its trunk, not with a branch.
      const trunk = input.isDummy[v] === 1 && start[v + 1]! - start[v]! > 1;
      for (let k = start[v]!; k < start[v + 1]!; k++) if (!trunk || input.isDummy[otherEnd[list[k]!]!]) edges.push(list[k]!);
      if (edges.length === 0) for (let k = start[v]!; k < start[v + 1]!; k++) edges.push(list[k]!);
      if (edges.length === 0) continue;
      edges.sort((a, b) => pos[otherEnd[a]!]! - pos[otherEnd[b]!]! || sign * (otherOffset[a]! - otherOffset[b]!) || a - b);
      const mid = (edges.length - 1) / 2;
      for (let i = Math.floor(mid); i <= Math.ceil(mid); i++) {
        const e = edges[i]!;
        const w = otherEnd[e]!;
        if (align[v] === v && previousIndex < pos[w]! && !conflicts.has(Math.min(v, w) * n + Math.max(v, w))) {
          align[w] = v;
          root[v] = root[w]!;
          align[v] = root[v]!;
          shift[v] = shift[w]! + sign * (otherOffset[e]! - ownOffset[e]!);
          previousIndex = pos[w]!;
        }
      }
    }
  }
  return { root, shift };
}

/** Places each block as far left as its left neighbours allow, then pulls it right into any slack. */
function compactHorizontally(
  input: HorizontalInput,
  layering: Int32Array[],
  root: Int32Array,
  shift: Float64Array,
  reversed: boolean,
): Float64Array {
  const n = root.length;
  const outStart = new Int32Array(n + 1);
  let edgeCount = 0;
  for (const layer of layering) {
    for (let i = 1; i < layer.length; i++) {
      outStart[root[layer[i - 1]!]! + 1]!++;
      edgeCount++;
    }
  }
  for (let v = 0; v < n; v++) outStart[v + 1]! += outStart[v]!;
  const fill = outStart.slice(0, n);
  const outTarget = new Int32Array(edgeCount);
  const outWeight = new Float64Array(edgeCount);
  const inDegree = new Int32Array(n);
  for (const layer of layering) {
    for (let i = 1; i < layer.length; i++) {
      const u = layer[i - 1]!;
      const v = layer[i]!;
      const k = fill[root[u]!]!++;
      outTarget[k] = root[v]!;
      // Lines of blocks must keep apart by the nodes' separation, corrected by each node's shift from its line.
      outWeight[k] = (reversed ? separation(input, v, u) : separation(input, u, v)) + shift[u]! - shift[v]!;
      inDegree[root[v]!]!++;
    }
  }
  const order: number[] = [];
  for (let v = 0; v < n; v++) if (root[v] === v && inDegree[v] === 0) order.push(v);
  for (let i = 0; i < order.length; i++) {
    const u = order[i]!;
    for (let k = outStart[u]!; k < outStart[u + 1]!; k++) {
      const w = outTarget[k]!;
      if (--inDegree[w]! === 0) order.push(w);
    }
  }
  const xs = new Float64Array(n);
  for (const u of order) {
    for (let k = outStart[u]!; k < outStart[u + 1]!; k++) {
      const w = outTarget[k]!;
      xs[w] = Math.max(xs[w]!, xs[u]! + outWeight[k]!);
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const u = order[i]!;
    let min = Infinity;
    for (let k = outStart[u]!; k < outStart[u + 1]!; k++) min = Math.min(min, xs[outTarget[k]!]! - outWeight[k]!);
    if (min !== Infinity) xs[u] = Math.max(xs[u]!, min);
  }
  const x = new Float64Array(n);
  for (let v = 0; v < n; v++) x[v] = xs[root[v]!]! + shift[v]!;
  return x;
}

/** Shifts the four candidates so that each lines up with the narrowest on its own side. */
function alignToNarrowest(input: HorizontalInput, candidates: Float64Array[]): void {
  const n = input.position.length;
  const extent = (xs: Float64Array): [number, number] => {
    let min = Infinity;
    let max = -Infinity;
    for (let v = 0; v < n; v++) {
      min = Math.min(min, xs[v]! - input.leftExtent[v]!);
      max = Math.max(max, xs[v]! + input.rightExtent[v]!);
    }
    return [min, max];
  };
  const extents = candidates.map(extent);
  let narrowest = 0;
  extents.forEach(([min, max], k) => {
    const [bestMin, bestMax] = extents[narrowest]!;
    if (max - min < bestMax - bestMin) narrowest = k;
  });
  const [targetMin, targetMax] = extents[narrowest]!;
  candidates.forEach((xs, k) => {
    if (k === narrowest) return;
    const [min, max] = extents[k]!;
    const delta = k % 2 === 0 ? targetMin - min : targetMax - max;
    for (let v = 0; v < n; v++) xs[v]! += delta;
  });
}

/** Balancing can, rarely, bring two neighbours closer than allowed; push them apart left to right. */
function enforceSeparation(input: HorizontalInput, x: Float64Array): void {
  for (const layer of input.layers) {
    for (let i = 1; i < layer.length; i++) {
      const u = layer[i - 1]!;
      const v = layer[i]!;
      const min = x[u]! + separation(input, u, v);
      if (x[v]! < min) x[v] = min;
    }
  }
}

/**
 * Quadratic placement: minimise Σ ω·(x_u + a − x_v − b)² over edges (ports a, b),
 * subject to each layer's order and gaps, by sweeping layer by layer; each layer's
 * sub-problem is an isotonic regression solved exactly by pool-adjacent-violators.
 * Edges between dummies weigh most, so long edges straighten first, and a trunk
 * weighs as much as all the edges it carries. Every node
 * stays within [0, maxWidth]: for an isotonic regression with the same bounds on
 * every variable, clamping the unbounded solution is the bounded solution.
 */
export function assignCompactCoordinates(input: HorizontalInput, start: Float64Array, sweeps: number, maxWidth: number): Float64Array {
  const n = input.position.length;
  const x = start.slice();
  const { edgeUpper, edgeLower, upperOffset, lowerOffset, isDummy } = input;
  const m = edgeUpper.length;
  const incidentStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    incidentStart[edgeUpper[e]! + 1]!++;
    incidentStart[edgeLower[e]! + 1]!++;
  }
  for (let v = 0; v < n; v++) incidentStart[v + 1]! += incidentStart[v]!;
  const fill = incidentStart.slice(0, n);
  const incident = new Int32Array(2 * m);
  for (let e = 0; e < m; e++) {
    incident[fill[edgeUpper[e]!]!++] = e;
    incident[fill[edgeLower[e]!]!++] = e;
  }
  const weight = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    const dummies = isDummy[edgeUpper[e]!]! + isDummy[edgeLower[e]!]!;
    weight[e] = (dummies === 2 ? 8 : dummies === 1 ? 2 : 1) * input.multiplicity[e]!;
  }

  let maxLayer = 0;
  for (const layer of input.layers) maxLayer = Math.max(maxLayer, layer.length);
  const target = new Float64Array(maxLayer);
  const mass = new Float64Array(maxLayer);
  const blockStart = new Int32Array(maxLayer);
  const blockValue = new Float64Array(maxLayer);
  const blockMass = new Float64Array(maxLayer);

  const placeLayer = (layer: Int32Array): void => {
    let offset = 0;
    for (let i = 0; i < layer.length; i++) {
      const v = layer[i]!;
      if (i > 0) offset += separation(input, layer[i - 1]!, v);
      let sum = 0;
      let total = 0;
      for (let k = incidentStart[v]!; k < incidentStart[v + 1]!; k++) {
        const e = incident[k]!;
        const w = weight[e]!;
        // The x that would put this edge's two ports on one vertical line.
        const want = edgeUpper[e] === v ? x[edgeLower[e]!]! + lowerOffset[e]! - upperOffset[e]! : x[edgeUpper[e]!]! + upperOffset[e]! - lowerOffset[e]!;
        sum += w * want;
        total += w;
      }
      if (total === 0) {
        sum = x[v]! * 1e-3;
        total = 1e-3;
      }
      target[i] = sum / total - offset;
      mass[i] = total;
    }
    // Pool adjacent violators: blocks of equal value, non-decreasing left to right.
    let blocks = 0;
    for (let i = 0; i < layer.length; i++) {
      blockStart[blocks] = i;
      blockValue[blocks] = target[i]!;
      blockMass[blocks] = mass[i]!;
      blocks++;
      while (blocks > 1 && blockValue[blocks - 2]! >= blockValue[blocks - 1]!) {
        const a = blocks - 2;
        const b = blocks - 1;
        const total = blockMass[a]! + blockMass[b]!;
        blockValue[a] = (blockValue[a]! * blockMass[a]! + blockValue[b]! * blockMass[b]!) / total;
        blockMass[a] = total;
        blocks--;
      }
    }
    const first = layer[0]!;
    const last = layer[layer.length - 1]!;
    const low = input.leftExtent[first]!;
    const high = Math.max(low, maxWidth - input.rightExtent[last]! - offset);
    offset = 0;
    let block = 0;
    for (let i = 0; i < layer.length; i++) {
      if (i > 0) offset += separation(input, layer[i - 1]!, layer[i]!);
      while (block + 1 < blocks && blockStart[block + 1]! <= i) block++;
      x[layer[i]!] = Math.min(high, Math.max(low, blockValue[block]!)) + offset;
    }
  };
  for (let sweep = 0; sweep < sweeps; sweep++) {
    if (sweep % 2 === 0) for (const layer of input.layers) placeLayer(layer);
    else for (let l = input.layers.length - 1; l >= 0; l--) placeLayer(input.layers[l]!);
  }
  return x;
}

/**
 * Pulls each of `nodes` (label nodes: one edge in from above, one out below)
 * sideways until it lies between the x at which its edge leaves the node above
 * and the x at which it reaches the node below, as far as its neighbours in
 * the layer leave room. Brandes–Köpf's balancing can leave a label hundreds of
 * pixels beside the two nodes its edge joins (two labelled edges between the
 * same pair compete for one column); the edge then runs out to its label and
 * back. The layer's order is kept, so no crossing changes.
 */
export function pullLabelsBetweenEnds(input: HorizontalInput, x: Float64Array, nodes: ArrayLike<number>, passes: number): void {
  const { layers, edgeUpper, edgeLower, upperOffset, lowerOffset, upStart, upEdges, downStart, downEdges } = input;
  const layerOf = layersByNode(layers);
  for (let pass = 0; pass < passes; pass++) {
    let changed = false;
    for (let k = 0; k < nodes.length; k++) {
      const v = nodes[k]!;
      if (upCount(input, v) !== 1 || downCount(input, v) !== 1) continue;
      const up = upEdges[upStart[v]!]!;
      const down = downEdges[downStart[v]!]!;
      const fromAbove = x[edgeUpper[up]!]! + upperOffset[up]! - lowerOffset[up]!;
      const fromBelow = x[edgeLower[down]!]! + lowerOffset[down]! - upperOffset[down]!;
      const target = Math.min(Math.max(x[v]!, Math.min(fromAbove, fromBelow)), Math.max(fromAbove, fromBelow));
      if (Math.abs(target - x[v]!) < 0.5) continue;
      const [least, most] = roomBetweenNeighbours(input, x, layerOf.get(v)!, v);
      const moved = Math.min(Math.max(target, least), most);
      if (Math.abs(moved - x[v]!) < 0.5 || (moved - x[v]!) * (target - x[v]!) < 0) continue;
      x[v] = moved;
      changed = true;
    }
    if (!changed) break;
  }
}

/** Offsets below this many pixels between the two ports of an edge make a jog worth removing. */
const JOG_LIMIT = 16;

/**
 * Removes small jogs: a node moves sideways by the few pixels that put one of
 * its edges' ports in line, when its neighbours leave room and the move
 * straightens more of its edges than it bends.
 */
export function straightenJogs(input: HorizontalInput, x: Float64Array, passes: number): void {
  const { layers, edgeUpper, edgeLower, upperOffset, lowerOffset, upStart, upEdges, downStart, downEdges } = input;
  // How far the node's port sits from the other end's port, for each edge at v.
  const offsetsAt = (v: number, out: number[]): void => {
    out.length = 0;
    for (let k = upStart[v]!; k < upStart[v + 1]!; k++) {
      const e = upEdges[k]!;
      out.push(x[edgeUpper[e]!]! + upperOffset[e]! - (x[v]! + lowerOffset[e]!));
    }
    for (let k = downStart[v]!; k < downStart[v + 1]!; k++) {
      const e = downEdges[k]!;
      out.push(x[edgeLower[e]!]! + lowerOffset[e]! - (x[v]! + upperOffset[e]!));
    }
  };
  const offsets: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    let changed = false;
    for (const layer of layers) {
      for (let i = 0; i < layer.length; i++) {
        const v = layer[i]!;
        offsetsAt(v, offsets);
        const [least, most] = roomBetweenNeighbours(input, x, layer, v);
        const best = bestJogMove(offsets, (d) => x[v]! + d >= least - 1e-9 && x[v]! + d <= most + 1e-9);
        if (best !== 0) {
          x[v]! += best;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}

/**
 * The sideways move (one of `offsets`, the distances from a node's ports to
 * its edges' other ends, each under JOG_LIMIT) that straightens the most of
 * its edges, more than stay straight where it is, the shortest on a tie; 0
 * when none does. `allowed` says whether a move keeps the node's constraints.
 */
export function bestJogMove(offsets: readonly number[], allowed: (move: number) => boolean): number {
  const straightAfter = (move: number): number => offsets.reduce((count, d) => count + (Math.abs(d - move) < 0.5 ? 1 : 0), 0);
  const before = straightAfter(0);
  let best = 0;
  let bestCount = before;
  for (const d of offsets) {
    if (Math.abs(d) < 0.5 || Math.abs(d) > JOG_LIMIT || !allowed(d)) continue;
    const count = straightAfter(d);
    if (count > bestCount || (count === bestCount && count > before && Math.abs(d) < Math.abs(best))) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Lines up long edges: an edge that crosses several layers runs through a
 * point (a dummy) in each, and where those points sit at different places the
 * edge turns at every layer, a staircase. For each long edge, every place its
 * line already takes (its ends' ports, its points) is tried for each longest
 * run of its points that the room their neighbours leave lets go there; the
 * move that makes the most of its stretches straight wins, when it makes
 * more than now (the shortest on a tie). The order within each layer is kept, so no crossing of
 * lines between layers is added or removed.
 */
export function straightenChains(input: HorizontalInput, x: Float64Array, chains: ReadonlyArray<ArrayLike<number>>, passes: number): void {
  const { layers, edgeUpper, edgeLower, upperOffset, lowerOffset, isDummy } = input;
  const layerOf = layersByNode(layers);
  for (let pass = 0; pass < passes; pass++) {
    let changed = false;
    for (const chain of chains) {
      if (chain.length < 2) continue;
      const points: number[] = [];
      for (let i = 0; i + 1 < chain.length; i++) points.push(edgeLower[chain[i]!]!);
      if (points.some((d) => isDummy[d] !== 1 || downCount(input, d) !== 1 || upCount(input, d) !== 1)) continue;
      const first = chain[0]!;
      const last = chain[chain.length - 1]!;
      const start = x[edgeUpper[first]!]! + upperOffset[first]!;
      const end = x[edgeLower[last]!]! + lowerOffset[last]!;
      // Where each point may go: between its neighbours in its layer, their room kept.
      const room = points.map((d) => roomBetweenNeighbours(input, x, layerOf.get(d)!, d));
      const [low, high] = [room.map((r) => r[0]), room.map((r) => r[1])];
      const line = (at: (k: number) => number): number[] => [start, ...points.map((_, k) => at(k)), end];
      const straight = (xs: number[]): number => {
        let count = 0;
        for (let k = 0; k + 1 < xs.length; k++) if (Math.abs(xs[k]! - xs[k + 1]!) < 0.5) count++;
        return count;
      };
      const now = straight(line((k) => x[points[k]!]!));
      let best: { at: number; from: number; to: number; count: number; moved: number } | null = null;
      for (const at of new Set([start, end, ...points.map((d) => x[d]!)])) {
        // Each longest run of points that may all go there.
        for (let from = 0; from < points.length; ) {
          const fits = (k: number) => at >= low[k]! - 1e-9 && at <= high[k]! + 1e-9;
          if (!fits(from)) {
            from++;
            continue;
          }
          let to = from;
          while (to + 1 < points.length && fits(to + 1)) to++;
          const count = straight(line((k) => (k >= from && k <= to ? at : x[points[k]!]!)));
          let moved = 0;
          for (let k = from; k <= to; k++) moved += Math.abs(at - x[points[k]!]!);
          if (count > now && (!best || count > best.count || (count === best.count && moved < best.moved))) best = { at, from, to, count, moved };
          from = to + 1;
        }
      }
      if (!best) continue;
      for (let k = best.from; k <= best.to; k++) x[points[k]!] = best.at;
      changed = true;
    }
    if (!changed) break;
  }
}

const upCount = (input: HorizontalInput, v: number) => input.upStart[v + 1]! - input.upStart[v]!;
const downCount = (input: HorizontalInput, v: number) => input.downStart[v + 1]! - input.downStart[v]!;
