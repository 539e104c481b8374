/**
 * Which aspect of an element a changed field belongs to (geometry, style,
 * text, binding, other), as the history tells a change. Bookkeeping the
 * editor rewrites on every change (version, nonce, time, seed, index) is no
 * aspect on its own.
 */
import type { SceneElement } from '../edit/types.ts';

export type ChangeAspect = 'geometry' | 'style' | 'text' | 'binding' | 'other';

const ASPECT_ORDER: readonly ChangeAspect[] = ['geometry', 'style', 'text', 'binding', 'other'];

const FIELDS_BY_ASPECT: Record<Exclude<ChangeAspect, 'other'>, readonly string[]> = {
  geometry: ['x', 'y', 'width', 'height', 'angle', 'points', 'lastCommittedPoint', 'scale', 'crop'],
  style: [
    'strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'opacity', 'roundness',
    'fontSize', 'fontFamily', 'textAlign', 'verticalAlign', 'startArrowhead', 'endArrowhead', 'elbowed', 'lineHeight',
  ],
  text: ['text', 'originalText', 'autoResize'],
  binding: ['boundElements', 'startBinding', 'endBinding', 'containerId', 'frameId', 'groupIds', 'link'],
};
const BOOKKEEPING = new Set(['version', 'versionNonce', 'updated', 'seed', 'index']);
const ASPECT_OF_FIELD = new Map<string, ChangeAspect>(
  Object.entries(FIELDS_BY_ASPECT).flatMap(([aspect, fields]) => fields.map((field) => [field, aspect as ChangeAspect] as const)),
);

/** The aspect a changed field belongs to; null for bookkeeping. */
export function aspectOfField(field: string): ChangeAspect | null {
  return BOOKKEEPING.has(field) ? null : (ASPECT_OF_FIELD.get(field) ?? 'other');
}

/** Structural equality of JSON data (a key holding undefined counts as absent). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) if (!sameValue(left[key], right[key])) return false;
  return true;
}

/** The fields whose values differ between two versions of an element. */
export function changedFields(before: SceneElement, after: SceneElement): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => !sameValue(before[key], after[key]));
}

/** The aspects of a set of changed fields, in one fixed order. */
export function aspectsOf(fields: readonly string[]): ChangeAspect[] {
  const found = new Set(fields.map(aspectOfField));
  return ASPECT_ORDER.filter((aspect) => found.has(aspect));
}

/** The aspects in which two versions of an element differ ([] when only bookkeeping does). */
export function changeAspects(before: SceneElement, after: SceneElement): ChangeAspect[] {
  return aspectsOf(changedFields(before, after));
}
