/**
 * The edit fragment as zod schemas: what the fragment parser validates a
 * fragment's shape with, and the JSON Schema clients and agents see.
 */
import { z } from 'zod';
import { CssColor, FillStyle, nodeFields, SpecEdge } from '../spec/schema.ts';
import { SPEC_LIMITS } from '../spec/types.ts';

/** Items per fragment list; over them 413 SPEC_TOO_LARGE. */
export const EDIT_LIMITS = { addNodes: SPEC_LIMITS.nodes, addEdges: SPEC_LIMITS.edges, updateNodes: 1000 } as const;

const { parent: _parent, ...newNodeFields } = nodeFields;

export const EditNode = z
  .strictObject({
    ...newNodeFields,
    parent: z
      .string()
      .min(1)
      .max(SPEC_LIMITS.idLength)
      .nullable()
      .optional()
      .meta({ description: 'The id of a container of the diagram (a rectangle holding other shapes, or one with its label at the top): the node goes inside it, and the container grows to hold it if it must' }),
    x: z.number().optional().meta({ description: 'Left edge, with y; leave both out to place the node beside what it connects to' }),
    y: z.number().optional().meta({ description: 'Top edge, with x' }),
    width: z.number().positive().max(10_000).optional().meta({ description: 'Width in px (the label is wrapped to it); default: sized to the label' }),
    height: z.number().positive().max(10_000).optional().meta({ description: 'Height in px; default: sized to the label' }),
    attributes: z
      .array(z.string().max(SPEC_LIMITS.labelLength))
      .max(SPEC_LIMITS.nodes)
      .optional()
      .meta({ description: 'A class or ER diagram only: the new class\'s attributes ("+name: String") or the new entity\'s ("int id PK"), drawn in its compartment' }),
    methods: z
      .array(z.string().max(SPEC_LIMITS.labelLength))
      .max(SPEC_LIMITS.nodes)
      .optional()
      .meta({ description: 'A class diagram only: the new class\'s methods ("+area() double")' }),
  })
  .meta({
    id: 'EditNode',
    description: 'A new node: a SpecNode with an optional position and size; its parent, if any, is a container the diagram already has',
    examples: [{ id: 'cache', label: 'Redis', icon: 'icon-redis' }, { id: 'note', label: 'Read replica soon', shape: 'text', x: 400, y: 40 }],
  });

export const NodeUpdate = z
  .strictObject({
    id: z.string().min(1).max(SPEC_LIMITS.idLength).meta({ description: 'The id of a node in the diagram' }),
    label: z
      .string()
      .max(SPEC_LIMITS.labelLength)
      .regex(/\S/)
      .optional()
      .meta({ description: 'New label text: wrapped in the node, drawn smaller if it does not fit; never empty' }),
    strokeColor: CssColor.optional().meta({ description: 'Outline and text colour' }),
    backgroundColor: CssColor.optional().meta({ description: 'Fill colour' }),
    fillStyle: FillStyle.optional(),
  })
  .meta({
    id: 'NodeUpdate',
    description: 'A change to an existing node: its label or style (at least one field besides id). Position, size and shape change with patch ops.',
    examples: [{ id: 'db', backgroundColor: '#ffc9c9', label: 'Orders DB (primary)' }],
  });

export const EditFragment = z
  .strictObject({
    addNodes: z.array(EditNode).max(EDIT_LIMITS.addNodes).optional().meta({ description: 'New nodes' }),
    addEdges: z
      .array(SpecEdge)
      .max(EDIT_LIMITS.addEdges)
      .optional()
      .meta({ description: 'New edges (objects or shorthand strings); endpoints are existing or new node ids' }),
    updateNodes: z.array(NodeUpdate).max(EDIT_LIMITS.updateNodes).optional().meta({ description: 'Changes to existing nodes' }),
    after: z
      .string()
      .min(1)
      .max(SPEC_LIMITS.idLength)
      .optional()
      .meta({ description: 'A sequence diagram only: the id of the message (msg-N) the new messages follow, in its frame if it is in one; what comes later moves down. Default: after the last step' }),
  })
  .meta({
    id: 'EditFragment',
    description:
      'An additive edit: new nodes placed beside what they connect to, new edges bound at both ends, label and style changes. Existing elements never move. At least one item in all.',
    examples: [{ addNodes: [{ id: 'cache', label: 'Redis' }], addEdges: ['api -> cache : reads'], updateNodes: [{ id: 'db', backgroundColor: '#e7f5ff' }] }],
  });

/** A fragment that has passed the EditFragment schema, as sent. */
export type EditFragmentInput = z.input<typeof EditFragment>;
