/** `list_diagrams` and the tools that change one diagram: rename, move, edit, regenerate, patch, trash, restore, lint, and its source as text. */
import { z } from 'zod';
import * as S from '../../api/schemas.ts';
import { AnySpec, EditFragment, PatchOps, Scene } from '../content-schemas.ts';
import { contentOf, diagramId, exactlyOne, EXAMPLE_FOLDER, EXAMPLE_ID, linked, onDiagram, read, revision, sourceFields, title, type ToolKit, validationOf } from '../tool-kit.ts';

export function registerDiagramTools(kit: ToolKit): void {
  const { tool, link } = kit;
  tool(
    'list_diagrams',
    {
      description:
        'List your diagrams, newest first, one page at a time: id, title, folderId, starred, timestamps and editorUrl of each. Narrow with q (text in the title), folderId (a folder id from list_folders, or "none" for diagrams in no folder) and starred. Pass nextCursor back as cursor, with the same filters, for the next page; filter "trash" lists trashed diagrams. filter "shared" lists instead the diagrams others own that are shared with you or in a workspace you belong to, and workspace (an id from list_workspaces) the diagrams of that workspace; their items also carry role (yours: owner, editor or viewer) and workspaceId, and q, folderId and starred do not apply to them.',
      fields: {
        limit: z.number().int().min(1).max(100).optional().describe('Page size, default 50'),
        cursor: S.ListDiagramsQuery.shape.cursor,
        filter: S.ListDiagramsQuery.shape.filter,
        workspace: S.ListDiagramsQuery.shape.workspace,
        q: S.ListDiagramsQuery.shape.q,
        folderId: S.ListDiagramsQuery.shape.folderId,
        starred: z.boolean().optional().describe('true: only starred diagrams; false: only the others'),
      },
      example: { q: 'checkout', limit: 20 },
      output: z.looseObject({ items: z.array(linked()), nextCursor: z.string().nullable() }),
      annotations: read,
    },
    async (a, c) => {
      const { limit, cursor, filter, workspace, q, folderId, starred } = a;
      const page = await c.listDiagrams({ ...(limit !== undefined ? { limit } : {}), ...(cursor ? { cursor } : {}), ...(filter ? { filter } : {}), ...(workspace ? { workspace } : {}), ...(q !== undefined ? { q } : {}), ...(folderId !== undefined ? { folderId } : {}), ...(starred !== undefined ? { starred } : {}) });
      return { ...page, items: page.items.map(link) };
    },
  );
  tool(
    'rename_diagram',
    { description: 'Change a diagram\'s title.', fields: { id: diagramId, title: z.string().describe('The new title') }, example: { id: EXAMPLE_ID, title: 'Checkout (v2)' }, output: linked({ title: z.string() }), annotations: { idempotentHint: true }, about: onDiagram },
    async (a, c) => link(await c.updateDiagram(a.id, { title: a.title })),
  );
  tool(
    'move_diagram',
    {
      description: 'Move a diagram into a folder (folderId from list_folders), or to the root with null.',
      fields: { id: diagramId, folderId: z.guid().nullable().describe('UUID of a folder (from list_folders), or null for the root') },
      example: { id: EXAMPLE_ID, folderId: EXAMPLE_FOLDER },
      output: linked({ folderId: z.string().nullable() }),
      annotations: { idempotentHint: true },
      about: onDiagram,
    },
    async (a, c) => link(await c.updateDiagram(a.id, { folderId: a.folderId })),
  );
  tool(
    'edit_diagram',
    {
      description:
        'Grow or restyle a diagram semantically, keeping its layout and whatever a person changed by hand (prefer this to regenerate_diagram): addNodes (spec nodes, optionally with x/y/width/height; parent puts one into an existing container, which grows to hold it if it must), addEdges (spec edges between existing or new node ids), updateNodes ({ id, label?, strokeColor?, backgroundColor?, fillStyle? }; a new label keeps its node\'s size and shrinks its font, down to 60 % and never under 12 px, to fit; one that fits at no size is refused). In a sequence diagram, addNodes are new participants (at the right) and addEdges new messages, after the message "after" names (msg-N) or at the end; what comes later moves down. Returns the ids added and updated, and editorUrl. A refused edit comes back with every problem and a hint for each.',
      fields: { id: diagramId },
      content: EditFragment.shape,
      example: { id: EXAMPLE_ID, addNodes: [{ id: 'cache', label: 'Cache', icon: 'icon-redis' }], addEdges: ['api -> cache'], updateNodes: [{ id: 'db', backgroundColor: '#e7f5ff' }] },
      output: linked({ added: z.array(z.string()), updated: z.array(z.string()) }),
      about: (a) => ({ diagramId: a.id, validation: { edit: fragmentOf(a), diagramId: a.id } }),
    },
    async (a, c) => link({ id: a.id, ...(await c.editDiagram(a.id, fragmentOf(a) as S.EditBody)) }),
  );
  tool(
    'regenerate_diagram',
    {
      description:
        'Replace a diagram\'s content with a new spec, Mermaid or DOT text or a new raw scene, keeping its id, folder and comments (comments on vanished elements are reported as orphaned). The way to change a diagram\'s structure: read it with get_diagram_source, change the text, send it back here. With layout "keep" (the default once the diagram was changed in place, by a person in the editor or by edit or patch) nodes that stay keep their place and size, gone ones leave with their arrows, new ones are placed beside what they connect to, and only new or changed arrows are routed again: the answer lists kept, placed and removed node ids. layout "fresh" lays everything out again, discarding a person\'s arrangement; a scene replaces everything. Give exactly one of spec, mermaid, dot or scene; Mermaid or DOT answers with warnings [{ line, message }] for what the drawing cannot show. Pass expectedUpdatedAt (the docUpdatedAt you read) to refuse the write with stale_read if someone changed it since.',
      fields: { id: diagramId, title, expectedUpdatedAt: revision, layout: S.RegenerateLayout.optional(), ...sourceFields },
      content: { spec: AnySpec.optional(), scene: Scene.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot', 'scene'),
      example: { id: EXAMPLE_ID, spec: { nodes: [{ id: 'a', label: 'Start', shape: 'ellipse' }, { id: 'b', label: 'Done' }], edges: ['a -> b'] } },
      output: linked({ replaced: z.number(), warnings: z.array(z.object({ line: z.number(), message: z.string() })).optional(), layout: z.string().optional(), kept: z.array(z.string()).optional(), placed: z.array(z.string()).optional(), removed: z.array(z.string()).optional() }),
      about: (a) => ({ diagramId: a.id, validation: validationOf(a, ['spec', 'mermaid', 'dot', 'scene']) }),
    },
    async ({ id, title, expectedUpdatedAt, layout, ...rest }, c) =>
      link(await c.regenerateDiagram(id, { ...contentOf(rest, ['spec', 'mermaid', 'dot', 'scene']), ...(title !== undefined ? { title } : {}), ...(expectedUpdatedAt !== undefined ? { expectedUpdatedAt } : {}), ...(layout !== undefined ? { layout } : {}) } as S.RegenerateBody)),
  );
  tool(
    'patch_elements',
    {
      description:
        'Apply precise element operations to a diagram, atomically: { op: "add", element } | { op: "update", id, set: { field: value } } | { op: "move", id, dx, dy } (or x, y) | { op: "resize", id, width, height } | { op: "restyle", id, strokeColor?, backgroundColor?, ... } | { op: "delete", id }. Element ids are those read_diagram and get_scene show. A label given new text is re-wrapped and its shape grows to hold it. Optional expectedUpdatedAt guards against concurrent changes (stale_read). Refused ops come back with every problem and a hint for each.',
      fields: { id: diagramId, expectedUpdatedAt: revision },
      content: { ops: PatchOps },
      example: { id: EXAMPLE_ID, ops: [{ op: 'move', id: 'db', dx: 40, dy: 0 }, { op: 'restyle', id: 'api', backgroundColor: '#fff3bf' }] },
      output: linked({ applied: z.number() }),
      about: (a) => ({ diagramId: a.id, validation: { ops: a.ops, diagramId: a.id } }),
    },
    async ({ id, ...body }, c) => link(await c.patchDiagram(id, body as S.PatchBody)),
  );
  tool(
    'trash_diagram',
    { description: 'Move a diagram to the trash (recoverable with restore_diagram). Needs a token with the delete capability.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, output: linked({ trashed: z.boolean() }), annotations: { destructiveHint: true, idempotentHint: true }, about: onDiagram },
    async (a, c) => {
      await c.trashDiagram(a.id);
      return link({ id: a.id, trashed: true });
    },
  );
  tool(
    'restore_diagram',
    { description: 'Restore a trashed diagram to the active list.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, output: linked({ restored: z.boolean() }), annotations: { idempotentHint: true }, about: onDiagram },
    async (a, c) => {
      await c.restoreDiagram(a.id);
      return link({ id: a.id, restored: true });
    },
  );
  tool(
    'get_diagram_source',
    {
      description:
        'A diagram as text: language "mermaid" (a flowchart), "dot" (Graphviz) or "spec" (the diagram spec it draws, JSON; the default), whatever made it (a spec, Mermaid or DOT, the editor, a raw scene). Node ids are kept, with labels, shapes, containers (subgraphs, clusters), edge labels, heads and styles. It is the diagram to start from when you write a changed version of it for regenerate_diagram (which lays the whole diagram out again, so a person\'s arrangement is lost: for small changes prefer edit_diagram), or to hand it to another tool. warnings [{ message, elementIds }] say what the text leaves out (free lines, pictures, an id Mermaid cannot take).',
      fields: { id: diagramId, language: S.ExportLanguage.optional() },
      example: { id: EXAMPLE_ID, language: 'mermaid' },
      output: linked({ language: z.string(), text: z.string(), warnings: z.array(z.object({ message: z.string(), elementIds: z.array(z.string()) })) }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => link({ id: a.id, ...(await c.diagramSource(a.id, a.language ?? 'spec')) }),
  );
  tool(
    'lint_diagram',
    {
      description:
        'Check a diagram for what makes it hard to read or broken: overlapping shapes, clipped labels, unbound or dangling arrows, outliers, low-contrast colours; arrows through shapes (edge_through_shape, within 10 px), arrows sharing a line (edges_overlap, over 10 px within 4 px), arrows across a container\'s label (edge_through_container_label) or another arrow\'s label (arrow_through_label), arrow labels with under 16 px of arrow on a side (crowded_arrow_label) or over 12 px from their arrow (detached_arrow_label), text over shapes, lines or text (label_overlap) and over icons (text_over_icon); words wrapped between two letters (broken_word), arrows side by side under 16 px apart for over 30 px (edges_too_close), arrowheads on one side of a shape under 16 px apart (piled_arrowheads), arrowheads drawn under half size because the last leg is short (small_arrowhead), containers over 2.5× the room their contents need (container_slack), self-loops reaching under 24 px out or hidden by their label (hidden_self_loop), labels within 6 px of the outline of their shape (label_near_outline), and a flow whose first node is not in the first quarter of the drawing (late_flow_start). Returns the issues with the element ids involved (at most 100 per kind; fix them with patch_elements); empty means clean.',
      fields: { id: diagramId },
      example: { id: EXAMPLE_ID },
      output: linked({ issues: z.array(z.looseObject({ kind: z.string(), elementIds: z.array(z.string()), message: z.string() })) }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => link({ id: a.id, ...(await c.lintDiagram(a.id)) }),
  );
}

/** The edit fragment of edit_diagram's arguments. */
function fragmentOf(a: { addNodes?: unknown; addEdges?: unknown; updateNodes?: unknown; after?: unknown }): Record<string, unknown> {
  return {
    ...(a.addNodes !== undefined ? { addNodes: a.addNodes } : {}),
    ...(a.addEdges !== undefined ? { addEdges: a.addEdges } : {}),
    ...(a.updateNodes !== undefined ? { updateNodes: a.updateNodes } : {}),
    ...(a.after !== undefined ? { after: a.after } : {}),
  };
}
