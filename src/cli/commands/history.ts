/** `history`, `diff` and `restore`: the revisions of one diagram, what one changed, bringing one back. */
import type { Command } from 'commander';
import { type CliContext, CliFailure, EXIT, parseLimit } from '../context.ts';
import { diffLines, HISTORY_HEADERS, historyRow } from '../history.ts';

export function addHistoryCommands(program: Command, ctx: CliContext): void {
  const { bold, dim, progress, clearProgress, out, json, table, client, jsonOpt, examples } = ctx;
  program
    .command('history <id>')
    .description("list a diagram's revisions, newest first: when, who, how (token, web editor, MCP tool), what changed")
    .addOption(jsonOpt())
    .option('--all', 'follow cursors and list every revision')
    .option('--limit <n>', 'page size (1..100)', parseLimit)
    .option('--cursor <cursor>', 'the page after this nextCursor (from the --json output)')
    .addHelpText(
      'after',
      `${examples(
        'drawbridge history ID',
        'drawbridge history ID --limit 10',
        'drawbridge history ID --all --json | jq -r \'.items[] | select(.via.kind == "mcp") | .rev\'',
      )}
VIA says how the write came: a token (its name), an OAuth application, the web editor, or an MCP tool
with the token or application it acted for (mcp patch_elements (agent-bot)). WHEN is UTC.
`,
    )
    .action(async (id: string, opts: { json?: boolean; all?: boolean; limit?: number; cursor?: string }) => {
      if (opts.all && opts.cursor !== undefined) throw new CliFailure(EXIT.usage, 'give --all or --cursor, not both');
      const c = client();
      let items;
      let nextCursor: string | null = null;
      if (opts.all) {
        items = [];
        const onPage = (fetched: number) => progress(`Fetched ${fetched} revisions…`);
        for await (const item of c.allRevisions(id, { onPage, ...(opts.limit ? { pageSize: opts.limit } : {}) })) items.push(item);
        clearProgress();
      } else {
        const page = await c.listRevisions(id, { ...(opts.limit ? { limit: opts.limit } : {}), ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}) });
        items = page.items;
        nextCursor = page.nextCursor;
      }
      if (opts.json) return json({ items, nextCursor });
      if (items.length === 0) return out(dim('No revisions.'));
      table(HISTORY_HEADERS, items.map(historyRow));
      if (nextCursor) out(dim(`Older revisions exist; use --all to list every one, or --cursor ${nextCursor} for the next page.`));
    });
  program
    .command('diff <id> <rev>')
    .description('show what a revision changed: a one-line summary and the ids of the elements added, removed and changed')
    .option('--against <rev>', 'compare with this revision instead of the one before REV')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      `${examples('drawbridge diff ID r12', 'drawbridge diff ID r12 --against r3', 'drawbridge diff ID r12 --json   # {"from","to","added","removed","changed","summary","elements","order"?}')}
Changed elements are listed with what changed: geometry, style, text, binding or other.
--json adds the added and changed elements in full, as they are at REV.
`,
    )
    .action(async (id: string, rev: string, opts: { against?: string; json?: boolean }) => {
      const diff = await client().diffRevisions(id, rev, opts.against);
      if (opts.json) return json(diff);
      for (const line of diffLines(diff)) out(line);
    });
  program
    .command('restore <id> <rev>')
    .description("bring back a diagram's elements as they were at REV, written as a new revision (to take a diagram out of the trash: diagrams restore ID)")
    .option('--expected-updated-at <time>', 'refuse (409 stale_read, nothing written) if the diagram changed since this docUpdatedAt')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      `${examples('drawbridge history ID', 'drawbridge restore ID r12', 'drawbridge restore ID r12 --expected-updated-at 2026-05-04T10:21:07.512Z')}
Nothing is lost: the content replaced stays in the history, and the restore can itself be undone
by restoring the revision before it. The title and folder stay as they are.
`,
    )
    .action(async (id: string, rev: string, opts: { expectedUpdatedAt?: string; json?: boolean }) => {
      const c = client();
      const restored = await c.restoreRevision(id, rev, opts.expectedUpdatedAt !== undefined ? { expectedUpdatedAt: opts.expectedUpdatedAt } : {});
      if (opts.json) return json(restored);
      if (restored.rev === null) {
        out(`Restored ${bold(restored.restoredFrom)} of ${restored.id} (${restored.elements} elements); this server records no history now, so the restore is not in it.`);
      } else {
        out(`Restored ${bold(restored.restoredFrom)} of ${restored.id} as revision ${bold(restored.rev)} (${restored.elements} elements).`);
        // What the restore changed, from the history; the restore is done whether or not this can be read.
        const changes = await c.diffRevisions(id, restored.rev).catch(() => null);
        if (changes) out(`Changes: ${changes.summary}`);
      }
      if (restored.unresolvedComments > 0) out(`Opened again ${restored.unresolvedComments} comment${restored.unresolvedComments === 1 ? '' : 's'} on elements that came back.`);
    });
}
