/** `generate_diagram`, `create_scene` and `validate_diagram`: new diagrams from a spec, Mermaid, DOT or a raw scene, and checking content without writing it. */
import { z } from 'zod';
import * as S from '../../api/schemas.ts';
import type { ValidateContentBody } from '../../client/client.ts';
import { AnySpec, EditFragment, PatchOps, Scene } from '../content-schemas.ts';
import { type Element, fillTerseElements } from '../scene.ts';
import { contentOf, exactlyOne, folderId, linked, read, sourceFields, title, type ToolKit, validationOf } from '../tool-kit.ts';

export function registerCreateTools(kit: ToolKit): void {
  const { tool, link } = kit;
  tool(
    'generate_diagram',
    {
      description:
        'Create a new diagram from a spec, or from Mermaid (flowchart, stateDiagram-v2, sequenceDiagram, classDiagram, erDiagram) or Graphviz DOT text: give exactly one of spec, mermaid and dot. The server lays it out (shapes sized to their labels, arrows bound at both ends, nothing overlapping). Prefer this to create_scene. A spec is a flowchart (below), or with "kind": "sequence" a sequence diagram ({ kind, participants?: [id | { id, label?, type?: actor | database | … }], steps: ["a ->> b : label", { note, over | leftOf | rightOf }, { frame: loop | alt | opt | par | critical | break, label?, steps, branches? }, { activate } | { deactivate }], autonumber? }), with "kind": "class" a class diagram ({ kind, classes: [{ id, annotation?, attributes?: ["+name: String"], methods?: ["+area() double"], namespace? }], relations: ["Animal <|-- Dog", "Car *-- Wheel : has"], notes? }) or with "kind": "er" an ER diagram ({ kind, entities: [{ id, attributes: ["int id PK"] }], relationships: ["CUSTOMER ||--o{ ORDER : places"] }). Mermaid or DOT that does not parse is refused with its line and column; what the drawing cannot show comes back as warnings [{ line, message }]. Nodes: { id, label?, shape?: rectangle (default) | ellipse | diamond | text | start | end | fork (markers without a label), icon? (an id from search_icons), parent? (the id of the container node it sits in), strokeColor?, backgroundColor?, fillStyle? }. Edges: shorthand strings "a -> b : label" (also <-, <->, --, --> dashed) or { from, to, label?, style?, arrowhead? }. Direction: layout.direction TB | BT | LR | RL. Returns id, title, elementCount and editorUrl. A refused spec comes back with every problem and a hint for each.',
      fields: { title, folderId, ...sourceFields },
      content: { spec: AnySpec.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot'),
      example: {
        title: 'Checkout',
        spec: {
          layout: { direction: 'LR' },
          nodes: [
            { id: 'web', label: 'Web app' },
            { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
            { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' },
          ],
          edges: ['web -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL' }],
        },
      },
      output: linked({ title: z.string(), elementCount: z.number(), warnings: z.array(z.object({ line: z.number(), message: z.string() })).optional() }),
      about: (a) => ({ validation: validationOf(a, ['spec', 'mermaid', 'dot']) }),
    },
    async (a, c) =>
      link(await c.createDiagram({ ...contentOf(a, ['spec', 'mermaid', 'dot']), ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) } as S.CreateDiagramBody)),
  );
  const terseElement = z
    .looseObject({
      type: z.string().describe('rectangle, ellipse, diamond, text, arrow, line, ...'),
      id: z.string().optional(),
      x: z.number().optional(),
      y: z.number().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
    })
    .describe('An Excalidraw element; any other field (text, containerId, points, startBinding, strokeColor, ...) is kept as given');
  tool(
    'create_scene',
    {
      description:
        'Create a new diagram from Excalidraw elements at exact positions, when a laid-out spec (generate_diagram) will not do. Each element needs only type and x/y; id, width and height are filled in when absent and every other field is kept as given. A text element with containerId is its shape\'s label; an arrow binds with startBinding/endBinding { elementId }. Returns id, title, elementCount and editorUrl.',
      fields: { title, folderId },
      content: { elements: z.array(terseElement) },
      example: {
        title: 'Two boxes',
        elements: [
          { id: 'a', type: 'rectangle', x: 0, y: 0 },
          { type: 'text', x: 40, y: 28, text: 'Client', containerId: 'a' },
          { id: 'b', type: 'rectangle', x: 300, y: 0 },
        ],
      },
      output: linked({ title: z.string(), elementCount: z.number() }),
      about: (a) => ({ validation: { scene: { elements: Array.isArray(a.elements) ? fillTerseElements(a.elements as Element[]) : a.elements } } }),
    },
    async (a, c) => {
      const elements = Array.isArray(a.elements) ? fillTerseElements(a.elements as Element[]) : a.elements;
      return link(await c.createDiagram({ scene: { elements }, ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) }));
    },
  );
  tool(
    'validate_diagram',
    {
      description:
        'Check a spec (of any kind: flowchart, sequence, class or ER), Mermaid or DOT text, an edit fragment, patch ops or a scene without writing anything: answers { valid, problems: [{ code, message, path, hint }] } with every problem at once (path is a JSON Pointer into what you sent; for Mermaid or DOT, line and column too), and for Mermaid or DOT the warnings [{ line, message }] of what the drawing would leave out. Give exactly one of spec, mermaid, dot, edit, ops, scene; with diagramId, an edit or ops are also checked against that diagram (their node and element ids must exist in it).',
      fields: { diagramId: z.string().optional().describe('Also check an edit or ops against this diagram\'s current content'), ...sourceFields },
      content: { spec: AnySpec.optional(), edit: EditFragment.optional(), ops: PatchOps.optional(), scene: Scene.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot', 'edit', 'ops', 'scene'),
      example: { spec: { nodes: [{ id: 'a', label: 'Client' }, { id: 'b', label: 'Server', shape: 'ellipse' }], edges: ['a -> b'] } },
      // The API's ValidationReport (a copy without its component id, so the schema's root is the object itself).
      output: z.object(S.ValidationReport.shape),
      annotations: read,
      about: (a) => (a.diagramId !== undefined ? { diagramId: a.diagramId } : {}),
    },
    async (a, c) => {
      const body = { ...contentOf(a, ['spec', 'mermaid', 'dot', 'edit', 'ops', 'scene']), ...(a.diagramId !== undefined ? { diagramId: a.diagramId } : {}) } as ValidateContentBody;
      return c.validateContent(body);
    },
  );
}
