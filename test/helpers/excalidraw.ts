/**
 * The Excalidraw editor's own `restore`, run in Node (through
 * src/render/editor-runtime.ts), as the oracle for "a generated scene opens in
 * the editor unchanged".
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';

export { loadExcalidraw };

export interface RestoreOptions {
  /**
   * Also re-wrap and re-measure every text element with the editor's own
   * algorithm (fed Drawbridge's metrics), as the editor does when a label is
   * edited. Opening a file does not do this.
   */
  refreshDimensions?: boolean;
}

/**
 * Runs the editor's restoreElements on a deep copy of the elements, the way
 * the editor restores a scene it opens from a file or from initialData
 * (repairBindings on, refreshDimensions off unless asked for).
 */
export async function restoreElements(elements: unknown[], options: RestoreOptions = {}): Promise<any[]> {
  const excalidraw = await loadExcalidraw();
  return excalidraw.restoreElements(structuredClone(elements), null, {
    repairBindings: true,
    refreshDimensions: options.refreshDimensions ?? false,
  });
}

/** Fields restore must leave alone, grouped by what they mean. */
const CHECKED_FIELDS = {
  identity: ['type', 'isDeleted', 'index'],
  geometry: ['width', 'height', 'x', 'y', 'angle', 'points'],
  bindings: ['startBinding', 'endBinding', 'boundElements', 'containerId'],
  text: ['text', 'originalText', 'fontSize', 'fontFamily', 'lineHeight', 'textAlign', 'verticalAlign', 'autoResize'],
  arrowheads: ['startArrowhead', 'endArrowhead', 'elbowed'],
} as const;

/** Compared as JSON would store them: -0 is 0, an undefined field is an absent one. */
function asStored(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function describe(element: any): string {
  return `element ${JSON.stringify(element?.id)} (${element?.type})`;
}

/**
 * The first way restore changed the scene, or null: a repeated id, an element
 * dropped or added, or a checked field (see CHECKED_FIELDS) that differs, per
 * id, in the input's order.
 */
function firstRestoreDifference(before: readonly any[], after: readonly any[]): string | null {
  const originalIds = new Set<unknown>();
  for (const element of before) {
    if (originalIds.has(element.id)) return `${describe(element)} repeats an id: restore gives the repeat a new random id`;
    originalIds.add(element.id);
  }
  const restoredById = new Map(after.map((element) => [element.id, element]));
  for (const original of before) {
    const restored = restoredById.get(original.id);
    if (!restored) return `${describe(original)} was dropped by restore`;
    for (const [group, fields] of Object.entries(CHECKED_FIELDS)) {
      for (const field of fields) {
        const [was, is] = [asStored(original[field]), asStored(restored[field])];
        if (!isDeepStrictEqual(was, is)) {
          return `${describe(original)}: restore changed ${group} field "${field}" from ${JSON.stringify(was)} to ${JSON.stringify(is)}`;
        }
      }
    }
  }
  const added = after.find((element) => !originalIds.has(element.id));
  if (added) return `restore added ${describe(added)}`;
  if (after.length !== before.length) return `restore turned ${before.length} elements into ${after.length}`;
  return null;
}

/**
 * Asserts that the editor's restore keeps every element, adds none, and
 * changes no geometry, binding, text or arrowhead field of any of them;
 * fails with the first difference. Returns the restored elements.
 */
export async function assertSurvivesRestore(elements: any[], options: RestoreOptions = {}): Promise<any[]> {
  const restored = await restoreElements(elements, options);
  const difference = firstRestoreDifference(elements, restored);
  if (difference) assert.fail(difference);
  return restored;
}

/**
 * Asserts that a container's label is exactly what the editor itself draws for
 * that label in that container: the editor's convertToExcalidrawElements binds
 * the label's originalText, with its font and alignment, to a copy of the
 * container, and wraps, measures and places it with its own code
 * (redrawTextBoundingBox, computeBoundTextPosition); text, size, position and
 * font must match, and the copy must not have grown to hold the label.
 */
export async function assertLabelAsTheEditorDrawsIt(container: any, label: any): Promise<void> {
  const excalidraw = await loadExcalidraw();
  const { id, type, x, y, width, height } = container;
  const { originalText, fontSize, fontFamily, textAlign, verticalAlign } = label;
  const [drawnContainer, drawn] = excalidraw.convertToExcalidrawElements(
    [{ id, type, x, y, width, height, label: { text: originalText, fontSize, fontFamily, textAlign, verticalAlign } }],
    { regenerateIds: false },
  );
  const fields = (e: any) => ({ text: e.text, fontSize: e.fontSize, width: e.width, height: e.height, x: e.x, y: e.y });
  assert.deepEqual(fields(label), fields(drawn), `the label of ${JSON.stringify(id)} is what the editor draws`);
  assert.deepEqual([drawnContainer.width, drawnContainer.height], [width, height], `the editor fits the label in ${JSON.stringify(id)} without growing it`);
}
