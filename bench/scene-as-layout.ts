/**
 * Reads a generated scene back as boxes and routes, so that the layout metrics
 * (src/domain/layout/metrics.ts) measure what was drawn, whichever engine laid
 * it out: shapes and free-standing text are nodes, bound arrows are edges.
 */
import type { LayoutInput, LayoutResult } from '../src/domain/layout/types.ts';

type Element = Record<string, any>;

export function asLayout(elements: Element[]): { input: LayoutInput; result: LayoutResult } {
  const shapes = elements.filter((e) => ['rectangle', 'ellipse', 'diamond'].includes(e.type) || (e.type === 'text' && !e.containerId));
  const arrows = elements.filter((e) => e.type === 'arrow');
  const input: LayoutInput = {
    direction: 'TB',
    nodes: shapes.map((e) => ({ id: e.id, width: e.width, height: e.height })),
    edges: arrows.map((a) => ({ id: a.id, from: a.startBinding.elementId, to: a.endBinding.elementId })),
  };
  const result: LayoutResult = { nodes: {}, edges: {} };
  for (const e of shapes) result.nodes[e.id] = { x: e.x, y: e.y, width: e.width, height: e.height };
  for (const a of arrows) result.edges[a.id] = { points: a.points.map((p: number[]) => [a.x + p[0]!, a.y + p[1]!] as [number, number]) };
  return { input, result };
}
