/**
 * A spec of any kind: a flowchart (`"kind": "flow"`, or no kind: nodes and
 * edges the layered layout places), a sequence diagram (`"sequence"`:
 * participants and steps), a class diagram (`"class"`) or an
 * entity-relationship diagram (`"er"`). The one place that tells them apart,
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
import { checkClassSpec, ClassSpec, type ClassSpecInput } from '../structure/class-spec.ts';
import { checkErSpec, ErSpec, type ErSpecInput } from '../structure/er-spec.ts';
import { sceneFromStructure } from '../structure/scene.ts';
import type { StructureSpec } from '../structure/types.ts';
import { checkSpec, type ParseOptions } from './parse.ts';
import { DiagramSpec, type DiagramSpecInput } from './schema.ts';
import type { DiagramSpec as CheckedFlow } from './types.ts';

export const AnySpec = z.union([DiagramSpec, SequenceSpec, ClassSpec, ErSpec]).meta({
  id: 'Spec',
  description:
    'A diagram to lay out: a flowchart (DiagramSpec: nodes and edges; "kind": "flow" or no kind), a sequence diagram (SequenceSpec: "kind": "sequence"), a class diagram (ClassSpec: "kind": "class") or an entity-relationship diagram (ErSpec: "kind": "er")',
});
export type AnySpecInput = DiagramSpecInput | SequenceSpecInput | ClassSpecInput | ErSpecInput;
export type CheckedSpec = CheckedFlow | CheckedSequence | StructureSpec;

const kindOf = (value: unknown) => (isPlainObject(value) && typeof value.kind === 'string' ? value.kind : 'flow');
/** Whether a spec as sent is a flowchart's (no kind, or "flow"). */
export const isFlowInput = (value: unknown): value is DiagramSpecInput => !['sequence', 'class', 'er'].includes(kindOf(value));
/** Whether a checked spec is a flowchart's. */
export const isFlow = (spec: CheckedSpec): spec is CheckedFlow => !('kind' in spec);

/** Every problem of a spec of any kind, and with none, the spec checked with its defaults filled in. */
export function checkAnySpec(input: unknown, options: ParseOptions): { problems: Problem[]; spec: CheckedSpec | null } {
  switch (kindOf(input)) {
    case 'sequence':
      return checkSequenceSpec(input as Record<string, unknown>, options);
    case 'class':
      return checkClassSpec(input as Record<string, unknown>, options);
    case 'er':
      return checkErSpec(input as Record<string, unknown>);
    default:
      return checkSpec(input, options);
  }
}

/** A checked spec of any kind drawn as elements (flowcharts, class and ER diagrams with `options.layout`). */
export function sceneOfSpec(spec: CheckedSpec, options: SceneOptions): ExcalidrawElement[] {
  if (isFlow(spec)) return sceneFromSpec(spec, options);
  return spec.kind === 'sequence' ? sceneFromSequence(spec, options) : sceneFromStructure(spec, options);
}
