/** `list_revisions`, `diff_revisions` and `restore_revision`: the history of one diagram. */
import { z } from 'zod';
import type { RevisionItem } from '../../api/history-schemas.ts';
import { diagramId, EXAMPLE_ID, linked, onDiagram, read, revision, type ToolKit } from '../tool-kit.ts';

export function registerHistoryTools(kit: ToolKit): void {
  const { tool, link } = kit;
  const revisionRef = z.string().min(1).describe('A revision id (rev) from list_revisions, e.g. "r17"; opaque, pass it as it is');
  tool(
    'list_revisions',
    {
      description:
        'List a diagram\'s history, newest first, one page at a time: every write (create, edit, patch, regenerate, a save in the web editor, restore) and every rename or move. Each item has rev (what diff_revisions and restore_revision take), at, author (an email), via (how the write came: kind token, oauth, web or mcp; name: the token, the application, "web editor" or the MCP tool that wrote; token: the token\'s name), kind, summary ("moved 3 shapes, relabelled db") and elementCount. Use it when a diagram is not as you expected or to undo a mistake: find the last good rev here, check what the writes after it changed with diff_revisions, bring it back with restore_revision. Pass nextCursor back as cursor for older revisions.',
      fields: {
        id: diagramId,
        cursor: z.string().optional().describe('The nextCursor of the previous page'),
        limit: z.number().int().min(1).max(100).optional().describe('Page size, default 50'),
      },
      example: { id: EXAMPLE_ID, limit: 10 },
      output: linked({ items: z.array(z.looseObject({ rev: z.string(), kind: z.string(), summary: z.string() })), nextCursor: z.string().nullable() }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => {
      const page = await c.listRevisions(a.id, { ...(a.cursor ? { cursor: a.cursor } : {}), ...(a.limit !== undefined ? { limit: a.limit } : {}) });
      return link({ id: a.id, items: page.items.map(revisionLine), nextCursor: page.nextCursor });
    },
  );
  tool(
    'diff_revisions',
    {
      description:
        'See what a revision changed: the ids of the elements added, removed and changed (each with what changed: geometry, style, text, binding, other) from the revision before rev, or from against, to rev, and a one-line summary ("moved 3 shapes, relabelled db"). Element ids are those read_diagram and get_scene show. includeElements: true adds the added and changed elements as they are at rev (large; leave it out to decide what to restore). Use it between list_revisions and restore_revision to make sure which write went wrong.',
      fields: {
        id: diagramId,
        rev: revisionRef,
        against: revisionRef.optional().describe('The revision to compare with (default: the one before rev)'),
        includeElements: z.boolean().optional().describe('Also answer the added and changed elements in full, as they are at rev'),
      },
      example: { id: EXAMPLE_ID, rev: 'r17' },
      output: linked({ from: z.string().nullable(), to: z.string(), summary: z.string(), added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.looseObject({ id: z.string() })) }),
      annotations: read,
      about: (a) => ({ diagramId: a.id, revisions: [a.rev, ...(a.against !== undefined ? [a.against] : [])] }),
    },
    async (a, c) => {
      const { elements, order, ...diff } = await c.diffRevisions(a.id, a.rev, a.against);
      return link({ id: a.id, ...diff, ...(a.includeElements ? { elements, ...(order ? { order } : {}) } : {}) });
    },
  );
  tool(
    'restore_revision',
    {
      description:
        'Bring a diagram\'s elements back to how they were at revision rev (from list_revisions). The old scene is written as a new revision, so nothing is lost: the restore shows in list_revisions and can itself be undone by restoring the revision before it. Comments anchored to elements that come back are opened again; the title and folder stay as they are. Pass expectedUpdatedAt (the docUpdatedAt you read) to refuse the restore with stale_read if someone changed the diagram since. To undo your own last write: call list_revisions and restore the rev of the item after yours (the list is newest first). Answers the new rev, restoredFrom, docUpdatedAt, the element count and editorUrl.',
      fields: { id: diagramId, rev: revisionRef, expectedUpdatedAt: revision },
      example: { id: EXAMPLE_ID, rev: 'r16' },
      output: linked({ rev: z.string().nullable().describe('The new revision; null when the server records no history'), restoredFrom: z.string(), docUpdatedAt: z.string() }),
      annotations: { destructiveHint: false },
      about: (a) => ({ diagramId: a.id, revisions: [a.rev] }),
    },
    async (a, c) => link(await c.restoreRevision(a.id, a.rev, a.expectedUpdatedAt !== undefined ? { expectedUpdatedAt: a.expectedUpdatedAt } : {})),
  );
}


/**
 * A revision as list_revisions answers it: who by email, how by kind and
 * name (and the token's or application's name), without the ids an agent
 * has no use for.
 */
function revisionLine(item: RevisionItem) {
  const { via } = item;
  return {
    rev: item.rev,
    at: item.at,
    author: item.author?.email ?? null,
    via: via === null ? null : { kind: via.kind, name: via.name, ...(via.token ? { token: via.token.name } : {}), ...(via.client ? { client: via.client.name } : {}) },
    kind: item.kind,
    summary: item.summary,
    elementCount: item.elementCount,
    ...(item.restoredFrom !== undefined ? { restoredFrom: item.restoredFrom } : {}),
  };
}
