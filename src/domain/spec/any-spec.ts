/**
 * A spec of any kind: a flowchart (`"kind": "flow"`, or no kind: nodes and
 * edges the layered layout places) or a sequence diagram (`"kind":
 * "sequence"`: participants and steps). The one place that tells them apart,
 * for checking a spec and drawing it.
 */
import { z } from 'zod';
import { isPlainObject } from '../payload.ts';
import type { Problem } from '../problems.ts';
import type { ExcalidrawElement } from '../scene/elements.ts';
import { sceneFromSpec, type SceneOptions } from '../scene/from-spec.ts';
import { checkSequenceSpec } from '../sequence/check.ts';
import { SequenceSpec, type SequenceSpecInput } from '../sequence/schema.ts';
import { sceneFromSequence } from '../sequence/scene.ts';
import type { SequenceSpec as CheckedSequence } from '../sequence/types.ts';
import { checkSpec, type ParseOptions } from './parse.ts';
import { DiagramSpec, type DiagramSpecInput } from './schema.ts';
import type { DiagramSpec as CheckedFlow } from './types.ts';

export const AnySpec = z.union([DiagramSpec, SequenceSpec]).meta({
  id: 'Spec',
  description: 'A diagram to lay out: a flowchart (DiagramSpec: nodes and edges; "kind": "flow" or no kind) or a sequence diagram (SequenceSpec: "kind": "sequence", participants and steps)',
});
export type AnySpecInput = DiagramSpecInput | SequenceSpecInput;
export type CheckedSpec = CheckedFlow | CheckedSequence;

export const isSequenceInput = (value: unknown): value is SequenceSpecInput => isPlainObject(value) && value.kind === 'sequence';
export const isSequence = (spec: CheckedSpec): spec is CheckedSequence => 'kind' in spec && spec.kind === 'sequence';

/** Every problem of a spec of any kind, and with none, the spec checked with its defaults filled in. */
export function checkAnySpec(input: unknown, options: ParseOptions): { problems: Problem[]; spec: CheckedSpec | null } {
  if (isSequenceInput(input)) return checkSequenceSpec(input as Record<string, unknown>, options);
  return checkSpec(input, options);
}

/** A checked spec of any kind drawn as elements (a flowchart with `options.layout`). */
export function sceneOfSpec(spec: CheckedSpec, options: SceneOptions): ExcalidrawElement[] {
  return isSequence(spec) ? sceneFromSequence(spec, options) : sceneFromSpec(spec, options);
}
