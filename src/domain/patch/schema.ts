/**
 * Patch ops as zod schemas: a discriminated union on `op`, what the patch
 * engine checks the shape of every op with before applying any, and the
 * JSON Schema clients and agents see. What depends on the scene (the element
 * an id names, the fields its type has) the engine checks as it applies.
 */
import { z } from 'zod';
import { CssColor } from '../spec/schema.ts';
import { FILL_STYLES } from '../spec/types.ts';
import { ELEMENT_TYPES } from './grammar.ts';

export const MAX_PATCH_OPS = 500;

const ElementId = z.string().min(1).meta({ description: 'The id of an element in the diagram' });
const FONT_FAMILIES = [1, 2, 3, 5, 6, 7, 8, 9] as const;

/** The style fields a restyle sets, with the engine's ranges. */
const styleFields = {
  strokeColor: CssColor.optional().meta({ description: 'Outline (and, on a text or a shape\'s label, text) colour' }),
  backgroundColor: CssColor.optional().meta({ description: 'Fill colour' }),
  fillStyle: z.enum(FILL_STYLES).optional(),
  strokeWidth: z.number().gt(0).max(50).optional().meta({ description: 'Outline width in px (the editor uses 1, 2, 4)' }),
  strokeStyle: z.enum(['solid', 'dashed', 'dotted']).optional(),
  roughness: z.number().min(0).max(5).optional().meta({ description: '0 architect, 1 artist, 2 cartoonist' }),
  opacity: z.number().min(0).max(100).optional(),
  fontSize: z.number().min(1).max(500).optional().meta({ description: 'Of a text, or of a shape\'s label' }),
  fontFamily: z
    .union(FONT_FAMILIES.map((f) => z.literal(f)))
    .optional()
    .meta({ description: '1 Virgil, 2 Helvetica, 3 Cascadia, 5 Excalifont, 6 Nunito, 7 Lilita One, 8 Comic Shanns, 9 Liberation Sans' }),
};

const NewElement = z
  .looseObject({
    id: z.string().min(1).optional().meta({ description: 'Left out: a fresh id is generated' }),
    type: z.enum(ELEMENT_TYPES as [string, ...string[]]).meta({ description: 'The element type' }),
    x: z.number().optional(),
    y: z.number().optional(),
    width: z.number().min(0).optional(),
    height: z.number().min(0).optional(),
    angle: z.number().optional().meta({ description: 'Rotation in radians' }),
    strokeColor: styleFields.strokeColor,
    backgroundColor: styleFields.backgroundColor,
    fillStyle: styleFields.fillStyle,
    strokeWidth: styleFields.strokeWidth,
    strokeStyle: styleFields.strokeStyle,
    roughness: styleFields.roughness,
    opacity: styleFields.opacity,
    roundness: z
      .strictObject({ type: z.union([z.literal(1), z.literal(2), z.literal(3)]), value: z.number().optional() })
      .nullable()
      .optional(),
    seed: z.int().optional(),
    groupIds: z.array(z.string().min(1)).optional(),
    frameId: z.string().nullable().optional().meta({ description: 'The frame the element sits in' }),
    link: z.string().nullable().optional(),
    locked: z.boolean().optional(),
    customData: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'NewElement',
    description:
      'An element to add, in the editor format: a type and the fields to set; the editor\'s defaults fill the rest. A text takes "text" and, to label a shape or an arrow, "containerId"; an arrow takes "points" and may bind with startBinding/endBinding { elementId }. Fields the type does not have are refused.',
    examples: [{ type: 'rectangle', id: 'cache', x: 400, y: 80, width: 160, height: 70 }, { type: 'text', text: 'Redis', containerId: 'cache' }],
  });

const AddOp = z.strictObject({ op: z.literal('add'), element: NewElement }).meta({ id: 'AddOp', description: 'Add an element' });
const UpdateOp = z
  .strictObject({
    op: z.literal('update'),
    id: ElementId,
    set: z
      .record(z.string(), z.unknown())
      .refine((set) => Object.keys(set).length > 0, 'set must have at least one field')
      .meta({ description: 'The fields to change (those the element\'s type has); bindings, containerId, version and the like are not changed this way' }),
  })
  .meta({ id: 'UpdateOp', description: 'Change fields of an element', examples: [{ op: 'update', id: 'api-label', set: { text: 'Orders API' } }] });
const MoveOp = z
  .strictObject({
    op: z.literal('move'),
    id: ElementId,
    x: z.number().optional(),
    y: z.number().optional(),
    dx: z.number().optional(),
    dy: z.number().optional(),
  })
  .meta({
    id: 'MoveOp',
    description: 'Move an element to x, y or by dx, dy (one pair, not both): its label follows and its arrows re-route',
    examples: [{ op: 'move', id: 'db', dx: 40, dy: 0 }],
  });
const ResizeOp = z
  .strictObject({ op: z.literal('resize'), id: ElementId, width: z.number().gt(0), height: z.number().gt(0) })
  .meta({ id: 'ResizeOp', description: 'Resize a shape: its label re-wraps and its arrows re-route', examples: [{ op: 'resize', id: 'api', width: 240, height: 90 }] });
const RestyleOp = z
  .strictObject({ op: z.literal('restyle'), id: ElementId, ...styleFields })
  .meta({ id: 'RestyleOp', description: 'Change style fields (at least one); strokeColor and opacity carry to a shape\'s label, fontSize and fontFamily apply to it', examples: [{ op: 'restyle', id: 'db', backgroundColor: '#ffc9c9' }] });
const DeleteOp = z
  .strictObject({ op: z.literal('delete'), id: ElementId })
  .meta({ id: 'DeleteOp', description: 'Delete an element with its label and icons; arrows bound to it are unbound', examples: [{ op: 'delete', id: 'cache' }] });

export const PatchOp = z.discriminatedUnion('op', [AddOp, UpdateOp, MoveOp, ResizeOp, RestyleOp, DeleteOp]).meta({
  id: 'PatchOp',
  description: 'One element operation; ops apply in order, all or nothing',
});

/** An op that has passed the PatchOp schema, as sent. */
export type PatchOpInput = z.input<typeof PatchOp>;

export const PatchOps = z.array(PatchOp).min(1).max(MAX_PATCH_OPS).meta({ description: `The ops, 1 to ${MAX_PATCH_OPS}` });
