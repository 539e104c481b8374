import { fractionalIndex, stableInt } from './determinism.ts';

/** The editor's defaults for new elements (Excalidraw 0.18). */
export const DEFAULT_STROKE = '#1e1e1e';
export const FONT_SIZE = 20;
export const FONT_FAMILY_EXCALIFONT = 5;
export const LINE_HEIGHT = 1.25;
/** Distance kept between an arrow's end and the shape it is bound to. */
export const BINDING_GAP = 4;

export type ExcalidrawElement = Record<string, unknown> & { id: string; type: string };
export type BoundRef = { id: string; type: 'text' | 'arrow' };

export interface Style {
  strokeColor?: string | null;
  backgroundColor?: string | null;
  fillStyle?: string | null;
  strokeStyle?: 'solid' | 'dashed' | 'dotted';
}

/** Everything every element carries; seeds and nonces derive from the id, so output is deterministic. */
export function baseElement(
  id: string,
  type: string,
  box: { x: number; y: number; width: number; height: number },
  order: number,
  updated: number,
  style: Style = {},
): ExcalidrawElement {
  return {
    id,
    type,
    x: box.x,
    y: box.y,
    width: box.width,
    height: box.height,
    angle: 0,
    strokeColor: style.strokeColor ?? DEFAULT_STROKE,
    backgroundColor: style.backgroundColor ?? 'transparent',
    fillStyle: style.fillStyle ?? 'solid',
    strokeWidth: 2,
    strokeStyle: style.strokeStyle ?? 'solid',
    roughness: 1,
    opacity: 100,
    groupIds: [],
    frameId: null,
    index: fractionalIndex(order),
    roundness: null,
    seed: stableInt(id),
    version: 1,
    versionNonce: stableInt(`${id}#nonce`),
    isDeleted: false,
    boundElements: [],
    updated,
    link: null,
    locked: false,
  };
}

/** Adds a back-reference (shape → its label or arrows). Empty lists stay `[]`, as the editor's restore makes them. */
export function addBound(element: ExcalidrawElement, ref: BoundRef): void {
  (element.boundElements as BoundRef[]).push(ref);
}
