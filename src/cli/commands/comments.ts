/** `comments list|add`: a diagram's comments. */
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

export function addCommentCommands(program: Command, ctx: CliContext): void {
  const { dim, out, json, table, client, jsonOpt } = ctx;
  const comments = program.command('comments').description('list and add comments on a diagram');
  comments
    .command('list <id>')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { json?: boolean }) => {
      const list = await client().listComments(id);
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No comments.'));
      table(
        ['ID', 'CREATED', 'ELEMENT', 'BODY'],
        list.items.map((c) => [c.id, c.createdAt.replace('T', ' ').slice(0, 16), c.elementId ?? '-', `${c.resolved ? '[resolved] ' : ''}${c.body}`]),
      );
    });
  comments
    .command('add <id>')
    .requiredOption('--body <text>', 'comment text')
    .option('--element <elementId>', 'anchor the comment to an element')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { body: string; element?: string; json?: boolean }) => {
      const comment = await client().addComment(id, { body: opts.body, ...(opts.element ? { elementId: opts.element } : {}) });
      if (opts.json) return json(comment);
      out(`Added comment ${comment.id}.`);
    });
}
