import { z } from 'zod';
import { CAPABILITIES } from '../auth/capabilities.ts';
import { ICON_CATEGORIES } from '../domain/icons/catalog.ts';
import { LINT_KINDS } from '../domain/lint/issue.ts';
import { type ErrorCode, errorStatus } from '../errors.ts';
import { EditFragment } from '../domain/edit/schema.ts';
import { EXPORT_LANGUAGES } from '../domain/export/languages.ts';
import { MAX_PATCH_OPS, PatchOp } from '../domain/patch/schema.ts';
import { CONTENT_CODES } from '../domain/problems.ts';
import { Scene } from '../domain/scene/schema.ts';
import { SourceContent } from '../domain/source/schema.ts';
import { AnySpec } from '../domain/spec/any-spec.ts';

/**
 * The request and response shapes of the API: one schema per body, used by the
 * server to validate, by the OpenAPI document, and by clients to type calls.
 */
const Id = z.string().meta({ description: 'Resource id (UUID)' });
const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp', format: 'date-time' });
const EditorUrl = z.string().meta({ description: 'Where a person opens the diagram in the web editor: PUBLIC_URL + "/app/d/" + id', format: 'uri' });
const FolderRef = z.guid().nullable().meta({ description: 'UUID of a folder the caller owns, or null for the root' });


/*
 * The content fields of the write bodies (spec, scene, the edit fragment's
 * lists, ops) are typed with the content schemas, so the OpenAPI document and
 * every client see their shape. A problem inside one is not a bad_request:
 * the edge (src/edge/validate.ts, parseWith) answers it with the content
 * check's first problem, the code and message the domain gives for it; the
 * use cases then run the full check (with the diagram, for an edit or ops).
 */
/** A file that carries its scene: an SVG's text, or a PNG as a data URL (exported with embed=scene, or by the editor's "Embed scene"). */
const SceneFile = z.string().meta({
  description: 'A file that carries its scene, as Drawbridge\'s renders with `embed=scene` and the Excalidraw editor\'s "Embed scene" export write it: an SVG\'s text, or a PNG as a `data:image/png;base64,…` URL. A file without a scene is NOT_A_SCENE.',
});
/** A raw scene, or a file that carries one. */
const SceneOrFile = z.union([Scene, SceneFile]);

export const CreateDiagramBody = z.strictObject({
  title: z.string().optional(),
  folderId: FolderRef.optional(),
  spec: AnySpec.optional(),
  scene: SceneOrFile.optional(),
  source: SourceContent.optional(),
});
/** What a client may send: content it has not checked itself (a file, an agent's output) goes as it is, and the server checks it. */
type Unchecked<T, K extends keyof T> = Omit<T, K> & { [P in K]?: unknown };
export type CreateDiagramBody = Unchecked<z.infer<typeof CreateDiagramBody>, 'spec' | 'scene' | 'source'>;

export const UpdateDiagramBody = z.strictObject({
  title: z.string().optional(),
  folderId: FolderRef.optional(),
});
export type UpdateDiagramBody = z.infer<typeof UpdateDiagramBody>;

export const PublicLinkBody = z.strictObject({
  enabled: z.boolean(),
  password: z
    .string()
    .min(1, 'password must not be empty; send null to clear it')
    .max(1000)
    .nullable()
    .optional()
    .meta({ description: 'A string sets the password, null clears it, an absent key leaves it unchanged' }),
});
export type PublicLinkBody = z.infer<typeof PublicLinkBody>;

export const CreateFolderBody = z.strictObject({
  name: z.string(),
  parentId: FolderRef.optional(),
});
export type CreateFolderBody = z.infer<typeof CreateFolderBody>;

export const UpdateFolderBody = z.strictObject({ name: z.string() });
export type UpdateFolderBody = z.infer<typeof UpdateFolderBody>;

const FOLDER_FILTER_ERROR = 'must be a folder id (UUID) or "none"';
export const ListDiagramsQuery = z.object({
  limit: z.string().optional().meta({ description: 'Page size, default 50, clamped to 1..100' }),
  cursor: z
    .string()
    .optional()
    .meta({ description: 'Opaque; the nextCursor of the previous page, sent with the same filter, workspace, q, folderId and starred (other filters: 400 bad_request)' }),
  filter: z
    .enum(['active', 'trash', 'shared'])
    .optional()
    .meta({ description: '`active` (default) or `trash`: your own diagrams; `shared`: active diagrams others own that are shared with you or in a workspace you belong to (extension)' }),
  workspace: z
    .guid({ error: 'must be a workspace id (UUID)' })
    .optional()
    .meta({ description: "Only this workspace's active diagrams, yours included (members only, else 404 not_found) (extension)" }),
  q: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        'Only titles containing this text, ignoring case (Unicode: `é` finds `É`, `ss` finds `ß`); every character is literal, `%` and `_` included; empty: any title',
    }),
  folderId: z
    .union([z.literal('none'), z.guid({ error: FOLDER_FILTER_ERROR })], { error: FOLDER_FILTER_ERROR })
    .optional()
    .meta({ description: 'Only diagrams filed directly in this folder of yours (another or unknown folder: 404 not_found); `none`: only those in no folder' }),
  starred: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().meta({ description: '`true`: only starred diagrams; `false`: only the others' }),
});
export type ListDiagramsQuery = z.infer<typeof ListDiagramsQuery>;

export const Identity = z.object({
  id: Id,
  email: z.string(),
  capabilities: z.array(z.enum(CAPABILITIES)),
  scope: z.enum(['read-write', 'read']),
});

export const DiagramListItem = z.object({
  id: Id,
  title: z.string(),
  folderId: Id.nullable(),
  starred: z.boolean(),
  updatedAt: Timestamp,
  createdAt: Timestamp,
  editorUrl: EditorUrl,
  role: z.enum(['owner', 'editor', 'viewer']).optional().meta({ description: 'Listing others\' diagrams (`filter=shared`, `workspace`) only: your role on it' }),
  workspaceId: Id.nullable().optional().meta({ description: 'Listing others\' diagrams (`filter=shared`, `workspace`) only: the workspace it is in, or null' }),
});

export const DiagramPage = z.object({ items: z.array(DiagramListItem), nextCursor: z.string().nullable() });

const SummaryFields = {
  id: Id,
  title: z.string(),
  folderId: Id.nullable(),
  ownerId: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  editorUrl: EditorUrl,
};
export const SourceWarning = z
  .object({
    line: z.number().int().meta({ description: 'The 1-based line of the source it concerns' }),
    message: z.string().meta({ description: 'What the drawing leaves out or draws differently' }),
  })
  .meta({ id: 'SourceWarning', description: 'Something in a Mermaid or DOT source that the drawing does not show as written' });
const Warnings = z.array(SourceWarning).optional().meta({ description: 'Only for content sent as a `source`: every construct the drawing leaves out or draws differently (empty when none)' });

export const CreatedDiagram = z.object({ ...SummaryFields, elementCount: z.number().int(), warnings: Warnings });
export const UpdatedDiagram = z.object({ ...SummaryFields, deletedAt: Timestamp.nullable() });

export const Diagram = z.object({
  ...SummaryFields,
  deletedAt: Timestamp.nullable(),
  docUpdatedAt: Timestamp.nullable(),
  scene: z.object({ elements: z.array(z.record(z.string(), z.unknown())), appState: z.object({}) }),
});

export const Folder = z.object({ id: Id, name: z.string(), parentId: Id.nullable() });
export const FolderList = z.object({ items: z.array(Folder) });

export const PublicLink = z.object({
  slug: z.string().nullable().meta({ description: 'Fixed for the life of the diagram once made; null while the diagram was never published' }),
  enabled: z.boolean(),
  hasPassword: z.boolean(),
  version: z.number().int().meta({ description: 'Increases by one on every successful PUT; 0 while the diagram was never published' }),
  url: z.string().nullable().meta({ description: 'The public page (PUBLIC_URL + "/p/" + slug) while enabled, else null' }),
});

export const IconListQuery = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        'Words that must each appear (ignoring case) in the id, label, category, subcategory or aliases: a product name, an abbreviation (`s3`, `aks`, `gke`, `pvc`) or a category. With q, the best matches come first: the id itself, then an alias or label equal to q, then q as whole words, then word starts, then the rest',
    }),
  category: z.enum(ICON_CATEGORIES).optional(),
});
export type IconListQuery = z.infer<typeof IconListQuery>;

const IconItem = z.object({
  id: z.string().meta({ description: 'Catalog icon id, `icon-<name>`' }),
  label: z.string(),
  category: z.enum(ICON_CATEGORIES),
  subcategory: z.string().optional().meta({ description: "The icon set's own category (`Storage`, `Compute`…), for the AWS, Azure, Google Cloud and Kubernetes sets" }),
  aliases: z.array(z.string()).optional().meta({ description: 'Abbreviations and other names the icon is found by (`s3`, `aks`), lowercase' }),
  width: z.number().int().meta({ description: 'Default display width in pixels' }),
  height: z.number().int().meta({ description: 'Default display height in pixels' }),
  mimeType: z.string(),
});
export const IconList = z.object({ items: z.array(IconItem) });

const ErrorEnvelope = z
  .strictObject({
    error: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]).meta({ description: 'The machine code; each operation lists the codes it can answer with' }),
    message: z.string().meta({ description: 'One or more sentences for a person: what is wrong and, where it helps, how to fix it' }),
  })
  .meta({ description: 'Every failure, whatever the status' });

/** GET /api/v1/openapi.json: the document itself, described only as far as its top level (the OpenAPI specification defines the rest). */
export const OpenApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({ description: 'An OpenAPI 3.1 document' });

export const RenderFormat = z.enum(['json', 'png', 'svg', 'pdf']);
export type RenderFormat = z.infer<typeof RenderFormat>;
export const RenderQuality = z.enum(['faithful', 'fast']);
export type RenderQuality = z.infer<typeof RenderQuality>;
export const RenderNote = z.enum(['faithful_unavailable', 'images_truncated', 'large_diagram_placeholder', 'render_failed', 'text_truncated']);

export const RenderEnvelope = z.object({
  isEmpty: z.boolean(),
  elementCount: z.number().int(),
  svg: z.string().nullable().meta({ description: 'SVG document; null for an empty scene' }),
  png: z.string().nullable().meta({ description: 'PNG (1024 px wide unless width or scale says otherwise), base64 without a data: prefix; null for an empty scene' }),
  quality: RenderQuality.meta({ description: 'The fidelity actually delivered' }),
  note: RenderNote.optional(),
});

export const LintReport = z.object({
  issues: z.array(
    z.object({
      kind: z.enum(LINT_KINDS).meta({ description: 'What is wrong; each kind and its thresholds are described in docs/api.md' }),
      elementIds: z.array(z.string()),
      message: z.string(),
    }),
  ).meta({ description: 'At most 100 issues of each kind, in kind order' }),
  counts: z.partialRecord(z.enum(LINT_KINDS), z.number().int().min(1)).meta({ description: 'How many issues of each kind were found, listed or not; a kind with none is absent' }),
  complete: z.boolean().meta({ description: 'False when the scene was too large to check every pair of elements (thousands piled on one spot): the counts are then lower bounds' }),
});

export const ExportLanguage = z.enum(EXPORT_LANGUAGES).meta({ description: '`spec` (default): the diagram spec it draws, as JSON; `mermaid`: a Mermaid flowchart; `dot`: Graphviz DOT' });

export const DiagramSource = z.object({
  language: ExportLanguage,
  text: z.string().meta({ description: 'The diagram in that language: ready to save as a .json, .mmd or .dot file, or to send back to create or regenerate as `spec` or `source`' }),
  warnings: z
    .array(z.object({ message: z.string(), elementIds: z.array(z.string()).meta({ description: 'The elements it is about' }) }))
    .meta({ description: 'What of the drawing the text does not say: elements a spec cannot hold (free lines, pictures, arrows loose at an end) and what the language cannot write (an id Mermaid cannot take, a head or tail label in Mermaid)' }),
});

const Revision = z.string().meta({ description: 'The docUpdatedAt read last; the write is refused with 409 stale_read if the diagram changed since' });

export const EditBody = z.strictObject({
  addNodes: EditFragment.shape.addNodes.meta({ description: 'DiagramSpec nodes, plus optional x, y, width, height' }),
  addEdges: EditFragment.shape.addEdges.meta({ description: 'DiagramSpec edges (objects or shorthand strings); endpoints are existing or new node ids' }),
  after: EditFragment.shape.after,
  updateNodes: EditFragment.shape.updateNodes.meta({
      description:
        '{ id, strokeColor?, backgroundColor?, fillStyle?, label? }. A new label never moves or resizes the node: it is wrapped in the node as the editor wraps it and, if it does not fit, drawn at a smaller font size, down to 60 % of its own and never under 12 px (below the icon, for a node with one); a label that fits at none of these sizes is INVALID_SPEC and nothing is written.',
    }),
});
export type EditBody = z.infer<typeof EditBody>;

export const EditResult = z.object({ added: z.array(z.string()), updated: z.array(z.string()), merged: z.number().int() });

export const RegenerateLayout = z.enum(['keep', 'fresh']).meta({
  description:
    'For a spec or a source. `keep`: nodes that stay keep their place and size (labels and styles change in place), gone nodes go with their arrows, new ones are placed beside what they connect to, and only new or changed arrows are routed again; `fresh`: everything is laid out again. Default: `keep` when the diagram was changed in place (edit, patch, the editor, a restore, a regenerate that kept) since it was last laid out, else `fresh`.',
});

export const RegenerateBody = z.strictObject({
  spec: AnySpec.optional(),
  scene: SceneOrFile.optional(),
  source: SourceContent.optional(),
  title: z.string().optional(),
  expectedUpdatedAt: Revision.optional(),
  layout: RegenerateLayout.optional(),
});
export type RegenerateBody = Unchecked<z.infer<typeof RegenerateBody>, 'spec' | 'scene' | 'source'>;

export const RegenerateResult = z.object({
  id: Id,
  replaced: z.number().int(),
  orphanedComments: z.number().int(),
  title: z.string().optional(),
  warnings: Warnings,
  layout: RegenerateLayout.optional().meta({ description: 'How a spec or a source was laid out (absent for a scene): `keep` falls back to `fresh` only for a container whose icon changes or whose new label does not fit it, or a stored scene whose graph is no valid spec' }),
  kept: z.array(z.string()).optional().meta({ description: 'With `keep`: the node ids that stayed where they were' }),
  placed: z.array(z.string()).optional().meta({ description: 'With `keep`: the node ids placed anew (new ones, a new container with what it holds, and those whose shape, icon or container changed, or whose new label does not fit them)' }),
  removed: z.array(z.string()).optional().meta({ description: 'With `keep`: the node ids that are gone, with their arrows' }),
});

export const PatchBody = z.strictObject({
  // No minimum here: an empty list is the engine's INVALID_SPEC, after the diagram is found.
  ops: z.array(PatchOp).max(MAX_PATCH_OPS).meta({ description: `PatchOps, 1 to ${MAX_PATCH_OPS}: add, update, move, resize, restyle, delete, applied in order` }),
  expectedUpdatedAt: Revision.optional(),
});
export type PatchBody = z.infer<typeof PatchBody>;

export const PatchResult = z.object({
  id: Id,
  applied: z.number().int(),
  elements: z.number().int(),
  deleted: z.number().int(),
  orphanedComments: z.number().int(),
});

export const CommentBody = z.strictObject({
  elementId: z.string().min(1).max(200).nullable().optional().meta({ description: 'The element the comment is anchored to' }),
  body: z.string().max(5000),
});
export type CommentBody = z.infer<typeof CommentBody>;

export const Comment = z.object({
  id: Id,
  elementId: z.string().nullable(),
  body: z.string(),
  authorId: Id,
  createdAt: Timestamp,
  resolved: z.boolean(),
  resolvedReason: z.string().nullable(),
});
export const CommentList = z.object({ items: z.array(Comment) });

const Problem = z
  .object({
    code: z.enum(CONTENT_CODES).meta({ description: 'The catalogue code a write of this content would be refused with' }),
    message: z.string().meta({ description: 'What is wrong, naming the item: nodes[3] (id "db"), edges[7] "api -> db", ops[2]' }),
    path: z.string().meta({ description: 'JSON Pointer into the validated value, e.g. /nodes/3/shape ("" for the value itself)' }),
    hint: z.string().optional().meta({ description: 'One line: how to fix it' }),
    line: z.number().int().optional().meta({ description: 'In a source: the 1-based line where the parser stopped' }),
    column: z.number().int().optional().meta({ description: 'In a source: the 1-based column where the parser stopped' }),
  })
  .meta({ id: 'Problem', description: 'One problem with a piece of content' });

const Content = (what: string) => z.unknown().optional().meta({ description: what });

export const ValidateBody = z
  .strictObject({
    spec: Content('A spec to check: a DiagramSpec (a flowchart) or a SequenceSpec'),
    edit: Content('An EditFragment ({ addNodes?, addEdges?, updateNodes? }) to check'),
    ops: Content('PatchOps (an array) to check'),
    scene: Content('A Scene to check'),
    source: Content('A source ({ language: "mermaid" | "dot", text }) to check'),
    diagramId: Id.optional().meta({ description: 'With edit or ops: also check them against this diagram\'s current content (the caller needs read access)' }),
  })
  .meta({ id: 'ValidateBody', description: 'Exactly one of spec, edit, ops, scene and source, as it would be sent to the write endpoint' });
export type ValidateBody = z.infer<typeof ValidateBody>;

export const ValidationReport = z
  .object({
    valid: z.boolean().meta({ description: 'True when there is no problem: the write would pass these checks' }),
    problems: z.array(Problem).meta({ description: 'Every problem found: first those with the shape, in document order, then the rest; a write endpoint answers with the first' }),
    warnings: Warnings,
  })
  .meta({ id: 'ValidationReport' });

/**
 * The names under which the OpenAPI document publishes these shapes as
 * components (`#/components/schemas/<name>`); an operation refers to them
 * instead of repeating them. Registered on zod's global registry, where
 * `.meta({ id })` puts the content schemas (spec, edit fragment, patch ops,
 * scene) too.
 */
const COMPONENTS: Record<string, z.ZodType> = {
  Error: ErrorEnvelope,
  Identity,
  DiagramListItem,
  DiagramPage,
  CreatedDiagram,
  UpdatedDiagram,
  Diagram,
  Folder,
  FolderList,
  PublicLink,
  IconItem,
  IconList,
  RenderEnvelope,
  LintReport,
  EditResult,
  RegenerateResult,
  PatchResult,
  Comment,
  CommentList,
  CreateDiagramBody,
  UpdateDiagramBody,
  PublicLinkBody,
  CreateFolderBody,
  UpdateFolderBody,
  EditBody,
  RegenerateBody,
  PatchBody,
  CommentBody,
};
for (const [id, schema] of Object.entries(COMPONENTS)) schema.register(z.globalRegistry, { ...z.globalRegistry.get(schema), id });
