/**
 * One-line hints for the mistakes a person or an agent really makes with the
 * content model: a field under another name (`type` for `shape`, `source` for
 * `from`), a value from another tool's vocabulary (`box`, `TD`, `dashed` as an
 * arrowhead), a field in the wrong place (`direction` on the spec).
 */
import { SHAPES } from './spec/types.ts';

const SHAPE_SYNONYMS: Record<string, string> = {
  box: 'rectangle',
  rect: 'rectangle',
  square: 'rectangle',
  rectangle: 'rectangle',
  rounded: 'stadium',
  pill: 'stadium',
  capsule: 'stadium',
  terminal: 'stadium',
  terminator: 'stadium',
  roundrect: 'stadium',
  process: 'rectangle',
  container: 'rectangle',
  group: 'rectangle',
  circ: 'circle',
  doublecircle: 'doublecircle',
  'double-circle': 'doublecircle',
  'dbl-circ': 'doublecircle',
  oval: 'ellipse',
  ellipse: 'ellipse',
  round: 'ellipse',
  cylinder: 'cylinder',
  cyl: 'cylinder',
  database: 'cylinder',
  db: 'cylinder',
  datastore: 'cylinder',
  storage: 'cylinder',
  hex: 'hexagon',
  hexagon: 'hexagon',
  octagon: 'hexagon',
  preparation: 'hexagon',
  parallelogram: 'parallelogram',
  lean: 'parallelogram',
  leanright: 'parallelogram',
  leanleft: 'parallelogram',
  io: 'parallelogram',
  inputoutput: 'parallelogram',
  subroutine: 'subroutine',
  subprocess: 'subroutine',
  predefinedprocess: 'subroutine',
  document: 'document',
  doc: 'document',
  page: 'document',
  file: 'document',
  initial: 'start',
  point: 'start',
  dot: 'start',
  final: 'end',
  join: 'fork',
  bar: 'fork',
  rhombus: 'diamond',
  decision: 'diamond',
  diamond: 'diamond',
  choice: 'diamond',
  condition: 'diamond',
  label: 'text',
  note: 'text',
  text: 'text',
  comment: 'text',
};

const normal = (value: string) => value.trim().toLowerCase().replace(/[\s_-]+/g, '');

/** Shapes other tools draw that Drawbridge shows as a rectangle with an icon from the catalog. */
const PICTURED: Record<string, string> = {
  cloud: 'icon-cloud',
  person: 'icon-user',
  user: 'icon-user',
  actor: 'icon-user',
  queue: 'icon-queue',
  server: 'icon-server',
};

/** The shape a word means, e.g. `box` → `rectangle`; null when unknown. */
function shapeFor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return SHAPE_SYNONYMS[normal(value)] ?? null;
}

/** `shape must be one of rectangle, ellipse, … — use rectangle for a box`. */
export function shapeHint(value: unknown): string {
  const base = `shape must be one of ${SHAPES.join(', ')}`;
  const meant = shapeFor(value);
  if (meant && typeof value === 'string') return `${base} — use ${meant} for ${/^[aeiou]/i.test(value) ? 'an' : 'a'} ${value}`;
  const icon = typeof value === 'string' ? PICTURED[normal(value)] : undefined;
  if (icon) return `${base} — for a ${value}, use a rectangle with "icon": "${icon}" (or a product's own icon from the catalog)`;
  return base;
}

const DIRECTION_SYNONYMS: Record<string, string> = {
  td: 'TB',
  topdown: 'TB',
  toptobottom: 'TB',
  down: 'TB',
  vertical: 'TB',
  tb: 'TB',
  bt: 'BT',
  bottomup: 'BT',
  bottomtotop: 'BT',
  up: 'BT',
  lr: 'LR',
  lefttoright: 'LR',
  leftright: 'LR',
  horizontal: 'LR',
  right: 'LR',
  rl: 'RL',
  righttoleft: 'RL',
  left: 'RL',
};

/** What to write for a direction given in another vocabulary (`TD`, `horizontal`). */
export function directionHint(value: unknown): string {
  const meant = typeof value === 'string' ? DIRECTION_SYNONYMS[normal(value)] : undefined;
  const base = 'direction is one of TB (top to bottom), BT, LR (left to right), RL';
  return meant ? `${base} — use "${meant}" for ${JSON.stringify(value)}` : base;
}

/** Fields of a sequence, class or ER spec under another name or in the wrong place; `fields` lists the kind's own. */
export function kindFieldHint(kind: 'sequence' | 'class' | 'er', key: string, fields: readonly string[]): string {
  const takes = `a${kind === 'er' ? 'n ER' : ` ${kind}`} spec takes ${fields.join(', ')}`;
  const meant: Record<string, Record<string, string>> = {
    sequence: { messages: 'steps', actors: 'participants', lifelines: 'participants', nodes: 'participants', edges: 'steps', notes: 'steps', frames: 'steps' },
    class: { nodes: 'classes', edges: 'relations', links: 'relations', relationships: 'relations', members: 'classes[].attributes and classes[].methods', namespaces: 'classes[].namespace', direction: 'layout.direction' },
    er: { nodes: 'entities', tables: 'entities', edges: 'relationships', relations: 'relationships', links: 'relationships', attributes: 'entities[].attributes', direction: 'layout.direction' },
  };
  const title = normal(key) === 'title' || normal(key) === 'name' ? 'the title goes in the request body next to "spec"; a title drawn on the diagram is the spec\'s "caption"' : null;
  const instead = meant[kind]![normal(key)];
  return title ?? (instead ? `${key} goes in ${instead}: ${takes}` : takes);
}

/** Fields of the spec itself under another name or in the wrong place. */
export function specFieldHint(key: string): string {
  switch (normal(key)) {
    case 'direction':
    case 'rankdir':
    case 'orientation':
    case 'flow':
      return `${key} belongs in layout.direction: "layout": { "direction": "LR" }`;
    case 'title':
    case 'name':
      return 'the title goes in the request body next to "spec", not inside it; a title drawn on the diagram is the spec\'s "caption"';
    case 'links':
    case 'connections':
    case 'arrows':
    case 'relations':
    case 'relationships':
    case 'lines':
      return `${key} are "edges": ["a -> b", { "from": "a", "to": "b" }]`;
    case 'elements':
    case 'shapes':
    case 'boxes':
    case 'items':
    case 'vertices':
      return `${key} are "nodes": [{ "id": "api", "label": "API" }]`;
    case 'groups':
    case 'containers':
    case 'clusters':
    case 'subgraphs':
      return 'containers are nodes too: add the container as a node and set "parent" to its id on each child';
    case 'theme':
    case 'style':
    case 'styles':
      return 'style each node with strokeColor, backgroundColor and fillStyle';
    default:
      return 'a spec has version, nodes, edges and layout';
  }
}

/** Fields of a node under another name. */
export function nodeFieldHint(key: string, value: unknown): string {
  switch (normal(key)) {
    case 'type':
    case 'kind':
    case 'form':
      if (typeof value === 'string' && (SHAPES as readonly string[]).includes(value)) return `use "shape": ${JSON.stringify(value)}`;
      return typeof value === 'string' ? `use "shape" (${shapeHint(value)})` : 'use "shape": rectangle, ellipse, diamond or text';
    case 'text':
    case 'name':
    case 'title':
    case 'caption':
    case 'content':
    case 'description':
      return 'use "label" for the text shown in the node';
    case 'color':
    case 'colour':
    case 'stroke':
    case 'border':
    case 'bordercolor':
    case 'linecolor':
    case 'textcolor':
    case 'fontcolor':
      return 'use "strokeColor" (outline and text) or "backgroundColor" (fill)';
    case 'fill':
    case 'fillcolor':
    case 'background':
    case 'bg':
    case 'bgcolor':
    case 'backgroundcolour':
      return 'use "backgroundColor" for the fill colour (and "fillStyle" for hachure, cross-hatch, solid or zigzag)';
    case 'children':
    case 'nodes':
    case 'members':
    case 'contains':
      return 'set "parent" to this node\'s id on each child instead of listing the children';
    case 'group':
    case 'container':
    case 'cluster':
    case 'parentid':
    case 'in':
      return 'use "parent": the id of the containing node';
    case 'edges':
    case 'links':
    case 'to':
    case 'targets':
    case 'connections':
    case 'next':
      return 'edges go in the spec\'s "edges" list: "a -> b"';
    case 'image':
    case 'iconid':
    case 'logo':
      return 'use "icon" with a catalog id such as "icon-database"';
    case 'style':
    case 'styles':
      return 'style a node with strokeColor, backgroundColor and fillStyle';
    case 'x':
    case 'y':
    case 'width':
    case 'height':
    case 'position':
    case 'size':
      return 'the server lays nodes out: leave positions and sizes out of a spec (an edit may place new nodes)';
    default:
      return 'a node has id, label, shape, icon, strokeColor, backgroundColor, fillStyle and parent';
  }
}

/** Fields of an edge object under another name. */
export function edgeFieldHint(key: string): string {
  switch (normal(key)) {
    case 'source':
    case 'src':
    case 'start':
    case 'tail':
    case 'fromid':
    case 'sourceid':
      return 'use "from" for the node the edge starts at';
    case 'target':
    case 'dst':
    case 'dest':
    case 'destination':
    case 'end':
    case 'head':
    case 'toid':
    case 'targetid':
      return 'use "to" for the node the edge ends at';
    case 'text':
    case 'name':
    case 'title':
    case 'caption':
      return 'use "label" for the text on the edge';
    case 'endarrowhead':
    case 'arrow':
    case 'marker':
    case 'endmarker':
      return 'use "arrowhead" for the end and "startArrowhead" for the start';
    case 'dashed':
    case 'dotted':
    case 'linestyle':
    case 'strokestyle':
    case 'type':
      return 'use "style": solid, dashed or dotted';
    case 'id':
      return 'edge ids are generated (<from>-to-<to>): leave "id" out';
    case 'color':
    case 'colour':
    case 'strokecolor':
      return 'edges take no colour in a spec; restyle the arrow with a patch after creating the diagram';
    default:
      return 'an edge object has from, to, label, arrowhead, startArrowhead and style';
  }
}

const ARROWHEAD_SYNONYMS: Record<string, string> = {
  arrowhead: 'arrow',
  open: 'arrow',
  normal: 'arrow',
  filled: 'triangle',
  triangleoutline: 'triangle',
  block: 'triangle',
  circleoutline: 'circle',
  odot: 'circle',
  dotfilled: 'dot',
  diamondoutline: 'diamond',
  odiamond: 'diamond',
  tee: 'bar',
  line: 'bar',
  null: 'none',
  no: 'none',
  off: 'none',
  false: 'none',
};

export function arrowheadHint(value: unknown): string {
  const base = 'arrowheads are arrow, triangle, bar, dot, circle, diamond or none';
  if (typeof value !== 'string') return value === null || value === false ? `${base} — use "none" for no arrowhead` : base;
  if (['dashed', 'dotted', 'solid'].includes(normal(value))) return `${base} — ${value} is a "style", not an arrowhead`;
  const meant = ARROWHEAD_SYNONYMS[normal(value)];
  return meant ? `${base} — use "${meant}" for ${JSON.stringify(value)}` : base;
}

export function edgeStyleHint(value: unknown): string {
  const base = 'style is solid, dashed or dotted';
  if (typeof value !== 'string') return base;
  const word = normal(value);
  if (word.startsWith('dash')) return `${base} — use "dashed"`;
  if (word.startsWith('dot')) return `${base} — use "dotted"`;
  if (['line', 'plain', 'normal', 'straight'].includes(word)) return `${base} — use "solid"`;
  return base;
}

/** Hints for the keys of an edit fragment. */
export function fragmentFieldHint(key: string): string {
  switch (normal(key)) {
    case 'nodes':
    case 'addnode':
    case 'newnodes':
      return 'new nodes go in "addNodes"';
    case 'edges':
    case 'addedge':
    case 'newedges':
    case 'links':
      return 'new edges go in "addEdges"';
    case 'update':
    case 'updates':
    case 'changenodes':
    case 'updatenode':
    case 'modifynodes':
      return 'changes to existing nodes go in "updateNodes"';
    case 'removenodes':
    case 'deletenodes':
    case 'removeedges':
    case 'deleteedges':
    case 'remove':
    case 'delete':
      return 'an edit only adds and restyles; delete elements with patch ops ({ "op": "delete", "id": … })';
    default:
      return 'an edit fragment has addNodes, addEdges and updateNodes';
  }
}

/** Hints for an unknown patch op kind. */
export function opKindHint(value: unknown): string {
  const base = 'op is one of add, update, move, resize, restyle, delete';
  if (typeof value !== 'string') return base;
  const meant: Record<string, string> = {
    create: 'add',
    insert: 'add',
    new: 'add',
    set: 'update',
    edit: 'update',
    change: 'update',
    modify: 'update',
    translate: 'move',
    position: 'move',
    scale: 'resize',
    size: 'resize',
    style: 'restyle',
    recolor: 'restyle',
    recolour: 'restyle',
    remove: 'delete',
    destroy: 'delete',
    erase: 'delete',
  };
  const kind = meant[normal(value)];
  return kind ? `${base} — use "${kind}" for ${JSON.stringify(value)}` : base;
}

/** Hints for a field an op kind does not take. */
export function opFieldHint(kind: string, key: string): string {
  const word = normal(key);
  if (kind === 'update' && word !== 'set') return 'an update changes fields through "set": { "op": "update", "id": …, "set": { … } }';
  if (kind === 'move' && ['width', 'height'].includes(word)) return 'a size is changed by a resize op';
  if (kind === 'resize' && ['x', 'y', 'dx', 'dy'].includes(word)) return 'a position is changed by a move op';
  if (kind === 'restyle' && ['color', 'colour', 'stroke'].includes(word)) return 'use "strokeColor" (or "backgroundColor" for the fill)';
  if (kind === 'restyle' && ['fill', 'background', 'fillcolor'].includes(word)) return 'use "backgroundColor" for the fill colour';
  if (kind === 'add' && word !== 'element') return 'an add op takes the new element in "element": { "op": "add", "element": { "type": "rectangle", … } }';
  if (word === 'elementid' || word === 'target') return 'name the element with "id"';
  return '';
}

/** Hints for a scene element type the editor does not know. */
export function elementTypeHint(value: unknown): string {
  const meant = shapeFor(value);
  return meant && meant !== 'text' && typeof value === 'string' ? `use "${meant}" for ${JSON.stringify(value)}` : meant === 'text' ? 'use "text"' : '';
}
