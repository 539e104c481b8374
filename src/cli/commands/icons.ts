/** `icons …`: browse the icon catalog. */
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

export function addIconCommands(program: Command, ctx: CliContext): void {
  const { dim, out, json, table, client, jsonOpt } = ctx;
  const icons = program.command('icons').description('browse the icon catalog');
  icons
    .command('list')
    .option('--search <text>', 'match id, label or category')
    .option('--category <category>', 'only this category')
    .addOption(jsonOpt())
    .action(async (opts: { search?: string; category?: string; json?: boolean }) => {
      const list = await client().listIcons({ ...(opts.search ? { q: opts.search } : {}), ...(opts.category ? { category: opts.category } : {}) });
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No icons match.'));
      table(['ID', 'CATEGORY', 'LABEL'], list.items.map((i) => [i.id, i.category, i.label]));
    });
}
