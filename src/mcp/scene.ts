import { randomUUID } from 'node:crypto';

// Scene helpers for agents: a compact summary of a scene, and terse elements filled out.

export type Element = Record<string, unknown>;

/** A compact, agent-readable summary of a scene: counts, node labels, edges. */
export function summarizeScene(elements: Element[], includeGeometry = false) {
  const live = elements.filter((e) => e.isDeleted !== true);
  const counts: Record<string, number> = {};
  for (const e of live) counts[String(e.type)] = (counts[String(e.type)] ?? 0) + 1;
  const labelOf = new Map<string, string>();
  for (const e of live) if (e.type === 'text' && typeof e.containerId === 'string') labelOf.set(e.containerId, String(e.text ?? ''));
  const bindingId = (b: unknown) => (b && typeof b === 'object' && typeof (b as { elementId?: unknown }).elementId === 'string' ? (b as { elementId: string }).elementId : null);
  const nodes = live
    .filter((e) => e.type !== 'arrow' && e.type !== 'line' && !(e.type === 'text' && e.containerId))
    .map((e) => {
      const label = e.type === 'text' ? String(e.text ?? '') : labelOf.get(String(e.id));
      return { id: String(e.id), type: String(e.type), ...(label ? { label } : {}), ...(includeGeometry ? geometry(e) : {}) };
    });
  const edges = live
    .filter((e) => e.type === 'arrow' || e.type === 'line')
    .map((e) => {
      const label = labelOf.get(String(e.id));
      return { id: String(e.id), from: bindingId(e.startBinding), to: bindingId(e.endBinding), ...(label ? { label } : {}), ...(includeGeometry ? geometry(e) : {}) };
    });
  return { elementCount: live.length, counts, nodes, edges };
}

function geometry(e: Element) {
  return { x: e.x, y: e.y, width: e.width, height: e.height };
}

/** Fills the minimal fields of terse elements (id, type, x, y, width, height); everything else is kept as given. */
export function fillTerseElements(elements: Element[]): Element[] {
  return elements.map((e) => {
    const type = typeof e.type === 'string' ? e.type : 'rectangle';
    const isText = type === 'text';
    return {
      ...e,
      id: typeof e.id === 'string' && e.id !== '' ? e.id : randomUUID(),
      type,
      x: typeof e.x === 'number' ? e.x : 0,
      y: typeof e.y === 'number' ? e.y : 0,
      width: typeof e.width === 'number' ? e.width : isText ? Math.max(10, String(e.text ?? '').length * 10) : 160,
      height: typeof e.height === 'number' ? e.height : isText ? 25 : 80,
    };
  });
}
