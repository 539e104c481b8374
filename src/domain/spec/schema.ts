/**
 * The DiagramSpec as zod schemas: what parseSpec validates a spec's shape
 * with, and (through z.toJSONSchema) the JSON Schema clients and agents see.
 * `null` is accepted wherever it has always meant "absent".
 */
import { z } from 'zod';
import { BAND_MIN_LENGTH, FOLD_MIN_LENGTH, FOLD_MIN_LENGTH_DOWN } from '../layout/folding/fold.ts';
import { CSS_COLOR } from '../scene/elements.ts';
import { ARROWHEADS, CAPTION_PLACES, DIRECTIONS, EDGE_STYLES, FILL_STYLES, FOLDS, MIN_LENGTH_RANGE, SHAPES, SPEC_LIMITS, STROKE_STYLES, STROKE_WIDTH_RANGE } from './types.ts';

const QUOTED = String.raw`"(?:[^"\\]|\\[\s\S])+"`;
/** A bare source id: no space, and no arrow may start inside it (`<-`, `--`, `->`). */
const BARE_SOURCE = String.raw`(?:[^\s"<-]|<(?!-)|-(?![->]))(?:[^\s<-]|<(?!-)|-(?![->]))*`;
/** A bare target id: no space and no colon. */
const BARE_TARGET = String.raw`[^\s:"][^\s:]*`;
/** Longest first, each closed against a longer reading (`<-` not followed by `>`). */
const ARROW = String.raw`(?:<->|<-(?!>)|-->|->|--(?!>))`;

/**
 * The shorthand grammar (shorthand.ts) as an ECMAScript regular expression:
 * `FROM ARROW TO` with an optional `: LABEL`, endpoints bare or double-quoted.
 * Lookaheads only, so it reads the same in any JSON Schema validator.
 */
export const SHORTHAND_PATTERN = String.raw`^\s*(?:${QUOTED}|${BARE_SOURCE})\s*${ARROW}\s*(?:${QUOTED}|${BARE_TARGET})\s*(?::\s*\S[\s\S]*)?$`;
const SHORTHAND_REGEX = new RegExp(SHORTHAND_PATTERN, 'u');

export const CssColor = z.string().regex(CSS_COLOR).meta({
  id: 'CssColor',
  description: 'A CSS colour: #rgb, #rrggbb, #rrggbbaa, a name such as "red" or "transparent", rgb()/rgba()/hsl()/hsla()',
  examples: ['#1e1e1e', 'transparent', '#e7f5ff'],
});

const NodeId = z
  .string()
  .min(1)
  .max(SPEC_LIMITS.idLength)
  .regex(/\S/)
  .meta({ description: `A node id: non-empty, at most ${SPEC_LIMITS.idLength} characters, unique in the diagram` });

const Shape = z.enum(SHAPES).meta({
  description: 'rectangle (the default), ellipse, diamond, text (a free text, no outline), cylinder (a database), stadium (fully rounded ends), circle, doublecircle (a circle with a ring inside: an accepting state), hexagon, parallelogram, subroutine (a box with inner side bars), document (a box with a wavy bottom), or a marker that draws no label: start (a small filled dot), end (a ringed dot), fork (a bar across the flow, for forks and joins)',
});
export const FillStyle = z.enum(FILL_STYLES).meta({ description: 'How the background is filled' });
const Arrowhead = z.enum(ARROWHEADS).meta({ description: 'An arrowhead: arrow, triangle, bar, dot, circle, diamond or none' });
const EdgeStyle = z.enum(EDGE_STYLES).meta({ description: 'The line: solid (default), dashed, dotted, or invisible (laid out like any edge, but draws nothing)' });
const StrokeStyle = z.enum(STROKE_STYLES).meta({ description: 'The outline: solid (default), dashed or dotted' });
const StrokeWidth = z
  .number()
  .min(STROKE_WIDTH_RANGE[0])
  .max(STROKE_WIDTH_RANGE[1])
  .meta({ description: `The line width in pixels, ${STROKE_WIDTH_RANGE[0]} to ${STROKE_WIDTH_RANGE[1]} (default 2)` });
const Direction = z.enum(DIRECTIONS as ['TB', 'BT', 'LR', 'RL']).meta({ description: 'TB top to bottom (default), BT, LR left to right, RL' });

/** The fields of a node; edit fragments extend them with a position and size. */
export const nodeFields = {
  id: NodeId,
  label: z
    .string()
    .max(SPEC_LIMITS.labelLength)
    .nullable()
    .optional()
    .meta({ description: `The text shown, at most ${SPEC_LIMITS.labelLength} characters; defaults to the id; "" shows none` }),
  shape: Shape.nullable().optional(),
  icon: z
    .string()
    .max(SPEC_LIMITS.idLength)
    .nullable()
    .optional()
    .meta({ description: 'A catalog icon id such as "icon-database" (GET /api/v1/icons), drawn above the label' }),
  strokeColor: CssColor.nullable().optional().meta({ description: 'Outline and text colour' }),
  backgroundColor: CssColor.nullable().optional().meta({ description: 'Fill colour' }),
  fillStyle: FillStyle.nullable().optional(),
  parent: z
    .string()
    .max(SPEC_LIMITS.idLength)
    .nullable()
    .optional()
    .meta({ description: 'The id of the container node this node sits in (a rectangle); containers nest' }),
  textColor: CssColor.nullable().optional().meta({ description: 'The label colour (default: strokeColor)' }),
  bold: z.boolean().nullable().optional().meta({ description: 'The whole label in bold (default false)' }),
  italic: z.boolean().nullable().optional().meta({ description: 'The whole label in italics (default false)' }),
  strokeWidth: StrokeWidth.nullable().optional(),
  strokeStyle: StrokeStyle.nullable().optional(),
  invisible: z.boolean().nullable().optional().meta({ description: 'A container that draws nothing (no outline, no label); its members are still laid out together (default false)' }),
  direction: Direction.nullable().optional().meta({ description: "A container's own flow direction: TB, BT, LR or RL (default: the diagram's); honoured when no edge links a member to a node outside the container (as Mermaid does), else the members follow the flow around it" }),
};

export const SpecNode = z.strictObject(nodeFields).meta({
  id: 'SpecNode',
  description: 'A node: a shape with a label, optionally an icon and a container (parent)',
  examples: [{ id: 'db', label: 'Orders DB', shape: 'ellipse', icon: 'icon-postgresql' }],
});

export const SpecEdgeObject = z
  .strictObject({
    from: z.string().min(1).max(SPEC_LIMITS.idLength).meta({ description: 'The id of the node the edge starts at' }),
    to: z.string().min(1).max(SPEC_LIMITS.idLength).meta({ description: 'The id of the node the edge ends at' }),
    label: z.string().max(SPEC_LIMITS.labelLength).nullable().optional().meta({ description: 'Text on the edge' }),
    headLabel: z
      .string()
      .max(SPEC_LIMITS.labelLength)
      .nullable()
      .optional()
      .meta({ description: 'Short text beside the end at the target (a multiplicity, a port\'s name), drawn as a free text next to the arrowhead (DOT\'s headlabel)' }),
    tailLabel: z
      .string()
      .max(SPEC_LIMITS.labelLength)
      .nullable()
      .optional()
      .meta({ description: 'Short text beside the end at the source, drawn as a free text next to where the edge leaves (DOT\'s taillabel)' }),
    arrowhead: Arrowhead.nullable().optional().meta({ description: 'The arrowhead at the end (default arrow)' }),
    startArrowhead: Arrowhead.nullable().optional().meta({ description: 'The arrowhead at the start (default none)' }),
    style: EdgeStyle.nullable().optional(),
    strokeWidth: StrokeWidth.nullable().optional(),
    strokeColor: CssColor.nullable().optional().meta({ description: 'The colour of the line and its arrowheads' }),
    constraint: z.boolean().nullable().optional().meta({ description: 'false: the edge takes no part in choosing ranks and is drawn wherever its ends land (default true)' }),
    minLength: z
      .number()
      .int()
      .min(MIN_LENGTH_RANGE[0])
      .max(MIN_LENGTH_RANGE[1])
      .nullable()
      .optional()
      .meta({ description: `Ranks the edge spans at least, ${MIN_LENGTH_RANGE[0]} to ${MIN_LENGTH_RANGE[1]} (default 1; 0: its ends may share a rank)` }),
  })
  .meta({ id: 'SpecEdgeObject', description: 'An edge between two node ids', examples: [{ from: 'api', to: 'db', label: 'SQL', style: 'dashed' }] });

export const SpecEdgeShorthand = z
  .string()
  .max(SPEC_LIMITS.shorthandLength)
  .regex(SHORTHAND_REGEX)
  .meta({
    id: 'SpecEdgeShorthand',
    description:
      'FROM ARROW TO with an optional ": LABEL". Arrows: -> (end arrowhead), <- (start), <-> (both), -- (none), --> (dashed). An id with spaces, arrow characters or a colon is double-quoted, with \\" and \\\\ escaping inside.',
    examples: ['api -> db', '"web app" --> api : HTTPS', 'a <-> b'],
  });

export const SpecEdge = z.union([SpecEdgeShorthand, SpecEdgeObject]).meta({
  id: 'SpecEdge',
  description:
    'An edge: a shorthand string like "a -> b : label", or an object { from, to, label?, headLabel?, tailLabel?, arrowhead?, startArrowhead?, style?, strokeWidth?, strokeColor?, constraint?, minLength? }',
});

export const SpecLayout = z
  .strictObject({
    direction: Direction.nullable().optional(),
    captionAt: z.enum(CAPTION_PLACES).nullable().optional().meta({ description: 'Where the caption is drawn: top (default, centred above the drawing) or bottom (centred below it)' }),
    fold: z.enum(FOLDS).nullable().optional().meta({ description: `auto (default): a flow longer than three times its width, and than ${FOLD_MIN_LENGTH} px across the page (${FOLD_MIN_LENGTH_DOWN} px down it), folds into bands at least ${BAND_MIN_LENGTH} px long, cut only where a single edge crosses; off: never` }),
    sameRank: z
      .array(z.array(z.string().min(1).max(SPEC_LIMITS.idLength)).min(1).max(SPEC_LIMITS.nodes))
      .max(SPEC_LIMITS.nodes)
      .nullable()
      .optional()
      .meta({ description: 'Lists of node ids, each laid out on one rank (lists sharing a node merge); an edge between two of them is drawn within the rank', examples: [[['a', 'b']]] }),
  })
  .meta({ id: 'SpecLayout', description: 'How the diagram is laid out', examples: [{ direction: 'LR' }] });

export const DiagramSpec = z
  .strictObject({
    kind: z.literal('flow').optional().meta({ description: 'flow: a flowchart, the default; a sequence diagram is a SequenceSpec' }),
    version: z.union([z.literal('1'), z.literal(1)]).optional().meta({ description: 'The spec format version: "1" (or 1), or left out' }),
    nodes: z.array(SpecNode).max(SPEC_LIMITS.nodes).nullable().optional().meta({ description: `The nodes, at most ${SPEC_LIMITS.nodes}` }),
    edges: z.array(SpecEdge).max(SPEC_LIMITS.edges).nullable().optional().meta({ description: `The edges, at most ${SPEC_LIMITS.edges}` }),
    layout: SpecLayout.nullable().optional(),
    caption: z
      .string()
      .max(SPEC_LIMITS.labelLength)
      .nullable()
      .optional()
      .meta({ description: 'A title drawn on the diagram, centred above it (layout.captionAt: bottom, below it), as Mermaid draws a front matter title and Graphviz a graph label. The diagram\'s own title (the request\'s "title") is not drawn.' }),
  })
  .meta({
    id: 'DiagramSpec',
    description:
      'A diagram described as nodes and edges; the server lays it out. Containers: give a node "parent" (the id of a rectangle node). Unknown fields are refused, so typos never pass silently.',
    examples: [
      {
        version: '1',
        layout: { direction: 'LR' },
        nodes: [{ id: 'web', label: 'Web app' }, { id: 'api', label: 'Orders API' }, { id: 'db', label: 'Orders DB', shape: 'ellipse' }],
        edges: ['web -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL' }],
      },
    ],
  });
export type DiagramSpecInput = z.input<typeof DiagramSpec>;
