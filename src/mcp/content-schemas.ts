import { z } from 'zod';

/**
 * PLACEHOLDER until the content schemas the server validates with are merged:
 * close approximations of DiagramSpec, EditFragment, PatchOp and Scene, with
 * the same component ids. The tools advertise whatever this module exports
 * (src/mcp/tool-input.ts); switching to the real schemas is a change of this
 * file only.
 */
const SHAPES = ['rectangle', 'ellipse', 'diamond', 'text'] as const;
const FILL_STYLES = ['hachure', 'cross-hatch', 'solid', 'zigzag'] as const;
const ARROWHEADS = ['arrow', 'triangle', 'bar', 'dot', 'circle', 'diamond', 'none'] as const;

const nodeFields = {
  id: z.string().min(1).max(100),
  label: z.string().max(500).optional(),
  shape: z.enum(SHAPES).optional(),
  icon: z.string().optional(),
  strokeColor: z.string().optional(),
  backgroundColor: z.string().optional(),
  fillStyle: z.enum(FILL_STYLES).optional(),
  parent: z.string().optional(),
};
export const SpecNode = z.strictObject(nodeFields).meta({ id: 'SpecNode' });
export const SpecEdge = z
  .union([
    z.string(),
    z.strictObject({ from: z.string(), to: z.string(), label: z.string().optional(), arrowhead: z.enum(ARROWHEADS).optional(), startArrowhead: z.enum(ARROWHEADS).optional(), style: z.enum(['solid', 'dashed', 'dotted']).optional() }),
  ])
  .meta({ id: 'SpecEdge' });
export const SpecLayout = z.strictObject({ direction: z.enum(['TB', 'BT', 'LR', 'RL']).optional() }).meta({ id: 'SpecLayout' });
export const DiagramSpec = z
  .strictObject({ version: z.union([z.literal('1'), z.literal(1)]).optional(), nodes: z.array(SpecNode), edges: z.array(SpecEdge).optional(), layout: SpecLayout.optional() })
  .meta({ id: 'DiagramSpec' });

export const EditFragment = z
  .strictObject({
    addNodes: z.array(z.strictObject({ ...nodeFields, x: z.number().optional(), y: z.number().optional(), width: z.number().optional(), height: z.number().optional() })).optional(),
    addEdges: z.array(SpecEdge).optional(),
    updateNodes: z.array(z.strictObject({ id: z.string(), label: z.string().optional(), strokeColor: z.string().optional(), backgroundColor: z.string().optional(), fillStyle: z.enum(FILL_STYLES).optional() })).optional(),
  })
  .meta({ id: 'EditFragment' });

export const SceneElement = z.looseObject({ id: z.string(), type: z.string() }).meta({ id: 'SceneElement' });
export const Scene = z.looseObject({ elements: z.array(SceneElement) }).meta({ id: 'Scene' });

const target = { op: z.string(), id: z.string() };
export const PatchOp = z
  .discriminatedUnion('op', [
    z.strictObject({ op: z.literal('add'), element: z.looseObject({ type: z.string() }) }),
    z.strictObject({ ...target, op: z.literal('update'), set: z.record(z.string(), z.unknown()) }),
    z.strictObject({ ...target, op: z.literal('move'), x: z.number().optional(), y: z.number().optional(), dx: z.number().optional(), dy: z.number().optional() }),
    z.strictObject({ ...target, op: z.literal('resize'), width: z.number(), height: z.number() }),
    z.looseObject({ ...target, op: z.literal('restyle') }),
    z.strictObject({ ...target, op: z.literal('delete') }),
  ])
  .meta({ id: 'PatchOp' });
