/**
 * How the patch engine reads an element: its kind, its bindings and
 * back-references, its outline, and a linear element's points in scene
 * coordinates (written back as the editor keeps them). Pure functions.
 */
import type { SceneElement } from '../edit/types.ts';
import { isPlainObject } from '../payload.ts';
import { BINDING_GAP, type BoundRef } from '../scene/elements.ts';
import type { Outline, Point } from '../scene/geometry.ts';

export type End = 'start' | 'end';
export const ENDS: readonly End[] = ['start', 'end'];

const LINEAR = new Set(['arrow', 'line']);
export const FRAMES = new Set(['frame', 'magicframe']);

export interface Binding {
  elementId: string;
  focus?: number;
  gap?: number;
  fixedPoint?: unknown;
}

export const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const num = (value: unknown, fallback = 0): number => (isFiniteNumber(value) ? value : fallback);
const round2 = (value: number): number => Math.round(value * 100) / 100 || 0;
export const outlineOf = (e: SceneElement): Outline => ({ type: e.type, x: num(e.x), y: num(e.y), width: num(e.width), height: num(e.height), rounded: e.roundness != null });
export const centreOf = (box: Outline): Point => [box.x + box.width / 2, box.y + box.height / 2];
export const sameBox = (a: Outline, b: Outline) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
/** Whether a point lies strictly inside a shape's outline (a box, an ellipse or a diamond). */
export function isInside(p: Point, shape: Outline): boolean {
  const a = shape.width / 2;
  const b = shape.height / 2;
  if (a <= 0 || b <= 0) return false;
  const dx = Math.abs(p[0] - (shape.x + a)) / a;
  const dy = Math.abs(p[1] - (shape.y + b)) / b;
  if (shape.type === 'ellipse') return dx * dx + dy * dy < 1;
  if (shape.type === 'diamond') return dx + dy < 1;
  return dx < 1 && dy < 1;
}
export const isLinear = (e: SceneElement) => LINEAR.has(e.type);
export const hasPoints = (e: SceneElement) => isLinear(e) || e.type === 'freedraw';
export const isBoundText = (e: SceneElement) => e.type === 'text' && typeof e.containerId === 'string';

export function bindingOf(e: SceneElement, end: End): Binding | null {
  const binding = e[`${end}Binding`];
  return isPlainObject(binding) && typeof binding.elementId === 'string' ? (binding as unknown as Binding) : null;
}

export function boundRefs(e: SceneElement): BoundRef[] {
  return Array.isArray(e.boundElements) ? (e.boundElements as unknown[]).filter((r): r is BoundRef => isPlainObject(r) && typeof r.id === 'string') : [];
}

/** The gap a re-attached end keeps: the binding's own when it is a sensible one. */
export function gapOf(binding: Binding): number {
  return isFiniteNumber(binding.gap) && binding.gap >= 1 && binding.gap <= 32 ? binding.gap : BINDING_GAP;
}

/** A linear element's points in scene coordinates. */
export function absolutePoints(e: SceneElement): Point[] {
  if (!Array.isArray(e.points)) return [];
  const x = num(e.x);
  const y = num(e.y);
  return (e.points as unknown[]).filter((p): p is number[] => Array.isArray(p)).map((p) => [x + num(p[0]), y + num(p[1])]);
}

/**
 * Stores scene points on a linear element as the editor keeps them: rounded
 * to hundredths, relative to the first (which is [0, 0]), and width/height
 * the points' extent computed exactly as the editor recomputes it.
 */
export function setAbsolutePoints(e: SceneElement, absolute: Point[]): void {
  const rounded = absolute.map(([x, y]) => [round2(x), round2(y)] as Point);
  const [x0, y0] = rounded[0]!;
  const relative = rounded.map(([x, y]) => [round2(x - x0), round2(y - y0)] as Point);
  const xs = relative.map((p) => p[0]);
  const ys = relative.map((p) => p[1]);
  e.x = x0;
  e.y = y0;
  e.points = relative;
  e.width = Math.max(...xs) - Math.min(...xs);
  e.height = Math.max(...ys) - Math.min(...ys);
}
