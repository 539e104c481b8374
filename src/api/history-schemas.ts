import { z } from 'zod';

/**
 * The shapes of a diagram's history over the API: the revision list, one
 * revision's scene, the difference between two revisions, and a restore.
 * Each named shape is an OpenAPI component (`.meta({ id })`); the server
 * validates with these, and the client, the CLI and the MCP tools are typed by
 * them.
 */
const Id = z.string().meta({ description: 'Resource id (UUID)' });
const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp', format: 'date-time' });

/** What kind of write made a revision. rename and move are events: they change no element. */
const REVISION_KINDS = ['create', 'edit', 'regenerate', 'patch', 'save', 'restore', 'rename', 'move', 'baseline'] as const;

/** How a write reached the service: an API token, an OAuth client, the web editor, a tool of Drawbridge's MCP server. */
const VIA_KINDS = ['token', 'oauth', 'web', 'mcp'] as const;

/** Which side of a changed element changed. */
const CHANGE_ASPECTS = ['geometry', 'style', 'text', 'binding', 'other'] as const;

/**
 * The request header Drawbridge's MCP servers send on every API call a tool
 * makes, naming the tool (`patch_elements`); the API records it as the
 * revision's `via`. It is the caller's own claim about which of its tools
 * wrote: the token is what authorizes the write.
 */
export const MCP_TOOL_HEADER = 'drawbridge-mcp-tool';
export const McpToolName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be 1 to 64 lowercase letters, digits and underscores, starting with a letter')
  .meta({ description: 'The MCP tool that made the call, e.g. `patch_elements`' });

const RevisionRef = z.string().meta({ description: 'An opaque, URL-safe revision id (e.g. `r17`): pass it back as it is, never parse it' });

const Named = z.object({ id: Id, name: z.string() });

export const Via = z
  .object({
    kind: z.enum(VIA_KINDS).meta({ description: '`token`: an API token; `oauth`: an application the person allowed; `web`: the web editor; `mcp`: a tool of a Drawbridge MCP server' }),
    name: z.string().meta({ description: 'What to show for it: the token\'s or the application\'s name, `web editor`, or the MCP tool\'s name' }),
    token: Named.optional().meta({ description: 'The API token that made the call (kinds token and mcp)' }),
    client: Named.optional().meta({ description: 'The OAuth application that made the call (kinds oauth and mcp)' }),
    tool: McpToolName.optional(),
  })
  .meta({ id: 'Via', description: 'How a write reached the service' });
export type Via = z.infer<typeof Via>;

export const RevisionItem = z
  .object({
    rev: RevisionRef,
    at: Timestamp.meta({ description: 'When the write happened (the diagram\'s docUpdatedAt after it, for a content write)' }),
    author: z.object({ id: Id, email: z.string() }).nullable().meta({ description: 'Who wrote; null for the baseline of a diagram written before history was kept' }),
    via: Via.nullable().meta({ description: 'How the write reached the service; null for a baseline' }),
    kind: z.enum(REVISION_KINDS).meta({
      description:
        'The write: `create`, `edit`, `regenerate`, `patch`, `save` (the web editor), `restore`; the events `rename` and `move`; `baseline`: the content a diagram had when its history began',
    }),
    elementCount: z.number().int().meta({ description: 'How many elements the scene current after this revision holds' }),
    summary: z.string().meta({ description: 'One line a person reads, e.g. `moved 3 shapes, relabelled db`; for a rename, `renamed "A" to "B"`' }),
    hasScene: z.boolean().meta({ description: 'False for events (rename, move): their scene is the content current at that time' }),
    restoredFrom: RevisionRef.optional().meta({ description: 'For kind restore: the revision it brought back' }),
    saves: z
      .object({ count: z.number().int(), since: Timestamp })
      .optional()
      .meta({ description: 'For kind save: the web editor saves as people work, and web saves in one burst of work (each less than 2 minutes after the last, within 10 minutes, whoever made them) are one revision; how many it holds and when the first was' }),
    contributors: z
      .array(z.object({ id: Id, email: z.string() }))
      .optional()
      .meta({ description: 'For kind save: everyone whose changes the revision holds (people editing together live make one revision), the author first' }),
  })
  .meta({ id: 'RevisionItem', description: 'One write in a diagram\'s history' });
export type RevisionItem = z.infer<typeof RevisionItem>;

export const RevisionList = z
  .object({
    items: z.array(RevisionItem).meta({ description: 'Newest first' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
  })
  .meta({ id: 'RevisionList', description: 'One page of a diagram\'s revisions' });
export type RevisionList = z.infer<typeof RevisionList>;

export const ListRevisionsQuery = z.object({
  limit: z.string().optional().meta({ description: 'Page size, default 50, clamped to 1..100' }),
  cursor: z.string().optional().meta({ description: 'Opaque; the nextCursor of the previous page' }),
});
export type ListRevisionsQuery = z.infer<typeof ListRevisionsQuery>;

const SceneElements = z.array(z.record(z.string(), z.unknown()));

export const RevisionScene = z
  .object({
    id: Id,
    rev: RevisionRef,
    at: Timestamp,
    kind: z.enum(REVISION_KINDS),
    elementCount: z.number().int(),
    scene: z.object({ elements: SceneElements, appState: z.object({}) }).meta({ description: 'The scene current after this revision (for an event, the content current at that time)' }),
  })
  .meta({ id: 'RevisionScene', description: 'A diagram as it was at one revision' });
export type RevisionScene = z.infer<typeof RevisionScene>;

const ChangedElement = z
  .object({
    id: z.string().meta({ description: 'The element id' }),
    aspects: z.array(z.enum(CHANGE_ASPECTS)).meta({ description: 'What changed: `geometry` (position, size, points), `style` (colours, strokes, fill), `text`, `binding` (what an arrow or label is attached to), `other`' }),
  })
  .meta({ id: 'ChangedElement', description: 'An element present on both sides that differs' });

export const DiffRevisionsQuery = z.object({
  against: z.string().optional().meta({ description: 'The revision to compare with (default: the one before `rev`); either may be the older' }),
});
export type DiffRevisionsQuery = z.infer<typeof DiffRevisionsQuery>;

export const RevisionDiff = z
  .object({
    from: RevisionRef.nullable().meta({ description: 'The revision compared with; null when `to` is the first revision (everything in it is added)' }),
    to: RevisionRef,
    added: z.array(z.string()).meta({ description: 'Ids of the elements `to` has and `from` lacks, in `to`\'s order' }),
    removed: z.array(z.string()).meta({ description: 'Ids of the elements `from` has and `to` lacks, in `from`\'s order' }),
    changed: z.array(ChangedElement),
    summary: z.string().meta({ description: 'One line a person reads, e.g. `moved 3 shapes, relabelled db, deleted the cache and its arrows`; `no changes to the elements` when none' }),
    elements: SceneElements.meta({ description: 'The added and changed elements as they are in `to`: with `removed` and `order`, what turns the scene of `from` into the scene of `to`' }),
    order: z.array(z.string()).optional().meta({ description: 'The element ids of `to` in order, present only when that order is not `from`\'s minus the removed, then the added' }),
  })
  .meta({ id: 'RevisionDiff', description: 'What changed between two revisions of a diagram' });
export type RevisionDiff = z.infer<typeof RevisionDiff>;

export const RestoreRevisionBody = z
  .strictObject({
    expectedUpdatedAt: z
      .string()
      .optional()
      .meta({ description: 'The docUpdatedAt read last; the restore is refused with 409 stale_read, and nothing is written, if the diagram changed since' }),
  })
  .meta({ id: 'RestoreRevisionBody' });
export type RestoreRevisionBody = z.infer<typeof RestoreRevisionBody>;

export const RestoredRevision = z
  .object({
    id: Id,
    rev: RevisionRef.nullable().meta({ description: 'The new revision the restore wrote; null when the server records no history (its operator turned it off)' }),
    restoredFrom: RevisionRef.meta({ description: 'The revision whose scene was brought back' }),
    docUpdatedAt: Timestamp.meta({ description: 'The diagram\'s new revision clock, to pass as expectedUpdatedAt to the next write' }),
    elements: z.number().int().meta({ description: 'How many elements the diagram holds now' }),
    unresolvedComments: z.number().int().meta({ description: 'How many resolved comments were opened again because the element they are anchored to came back' }),
  })
  .meta({ id: 'RestoredRevision', description: 'What a restore wrote' });
export type RestoredRevision = z.infer<typeof RestoredRevision>;
