/** `folders …`: list, create, rename and delete folders. */
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { folderPaths, isFolderId } from '../folders.ts';

export function addFolderCommands(program: Command, ctx: CliContext): void {
  const { bold, dim, out, json, table, client, folderIdOf, jsonOpt, examples } = ctx;
  const folders = program.command('folders').description('list and manage folders');
  folders
    .command('list')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const list = await client().listFolders();
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No folders.'));
      const paths = folderPaths(list.items);
      table(['ID', 'PATH'], list.items.map((f) => [f.id, paths.get(f.id) ?? f.name]).sort((a, b) => a[1]!.localeCompare(b[1]!)));
    });
  folders
    .command('create <name>')
    .option('--parent <folder>', 'create it inside this folder (name, Parent/Child path or id)')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge folders create Architecture', 'drawbridge folders create Services --parent Architecture'))
    .action(async (name: string, opts: { parent?: string; json?: boolean }) => {
      const c = client();
      const f = await c.createFolder({ name, ...(opts.parent ? { parentId: await folderIdOf(c, opts.parent) } : {}) });
      if (opts.json) return json(f);
      out(`Created folder ${bold(f.name)} ${f.id}`);
    });
  folders
    .command('rename <folder> <name>')
    .description('rename a folder, given by name, Parent/Child path or id')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge folders rename Architecture "Architecture 2026"', 'drawbridge folders rename FOLDER_ID Drafts'))
    .action(async (folder: string, name: string, opts: { json?: boolean }) => {
      const c = client();
      const f = await c.renameFolder(await folderIdOf(c, folder), { name });
      if (opts.json) return json(f);
      out(`Renamed folder ${f.id} to ${bold(f.name)}`);
    });
  folders
    .command('delete <folder>')
    .description('delete a folder, given by name, Parent/Child path or id')
    .addHelpText('after', examples('drawbridge folders delete Drafts', 'drawbridge folders delete FOLDER_ID'))
    .action(async (folder: string) => {
      const c = client();
      const id = await folderIdOf(c, folder);
      await c.deleteFolder(id);
      out(`Deleted folder ${isFolderId(folder) ? id : `${folder} (${id})`}.`);
    });
}
