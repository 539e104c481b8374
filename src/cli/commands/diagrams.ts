/** `diagrams …`: list, create, show, change, trash and restore diagrams (rendering, publishing and sharing have their own files). */
import { type Command, Option } from 'commander';
import { type CliContext, CliFailure, editorUrlOf, EXIT, parseLimit } from '../context.ts';
import { folderPaths, isFolderId } from '../folders.ts';
import { publicLinkActions } from './publish.ts';

export function addDiagramCommands(program: Command, ctx: CliContext): Command {
  const { paint, bold, dim, progress, clearProgress, out, note, json, table, apiUrl, client, folderIdOf, openWeb, readJson, readSpec, readScene, readDiagramSource, warnAbout, jsonOpt, examples } = ctx;
  const { setPublicLink } = publicLinkActions(ctx);
  const diagrams = program.command('diagrams').description('list, create and change diagrams');
  diagrams
    .command('list')
    .description('list diagrams, most recently updated first')
    .addOption(jsonOpt())
    .option('-q, --search <text>', 'only titles containing the text (case-insensitive)')
    .option('--folder <folder>', 'only diagrams in this folder (name, Parent/Child path or id), or none for the top level')
    .option('--starred', 'only starred diagrams')
    .option('--no-starred', 'only diagrams not starred')
    .option('--all', 'follow cursors and list every diagram')
    .addOption(new Option('--filter <filter>', 'active diagrams or the trash').choices(['active', 'trash']))
    .option('--shared', 'diagrams others own that are shared with you or in your workspaces, with your role')
    .option('--workspace <id>', "a workspace's diagrams (its id, from `workspaces list`), with your role")
    .option('--limit <n>', 'page size (1..100)', parseLimit)
    .addHelpText(
      'after',
      examples(
        'drawbridge diagrams list --search checkout',
        'drawbridge diagrams list --folder Architecture --starred',
        'drawbridge diagrams list --folder none          # the top level only',
        'drawbridge diagrams list --all --json | jq -r \'.items[].title\'',
        'drawbridge diagrams list --filter trash',
        'drawbridge diagrams list --shared',
      ),
    )
    .action(async (opts: { json?: boolean; search?: string; folder?: string; starred?: boolean; all?: boolean; filter?: 'active' | 'trash'; shared?: boolean; workspace?: string; limit?: number }) => {
      const others = Boolean(opts.shared) || opts.workspace !== undefined;
      if (others && (opts.search !== undefined || opts.folder !== undefined || opts.starred !== undefined || opts.filter !== undefined)) {
        throw new CliFailure(EXIT.usage, '--search, --folder, --starred and --filter narrow your own diagrams only; leave them out with --shared or --workspace');
      }
      if (opts.shared && opts.workspace !== undefined) throw new CliFailure(EXIT.usage, 'give --shared or --workspace, not both');
      const c = client();
      const folderId = opts.folder === undefined ? undefined : ((await folderIdOf(c, opts.folder, { allowRoot: true })) ?? 'none');
      const filters = {
        ...(opts.shared ? { filter: 'shared' as const } : {}),
        ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}),
        ...(opts.filter ? { filter: opts.filter } : {}),
        ...(opts.search !== undefined ? { q: opts.search } : {}),
        ...(folderId !== undefined ? { folderId } : {}),
        ...(opts.starred !== undefined ? { starred: opts.starred } : {}),
      };
      let items;
      let nextCursor: string | null = null;
      if (opts.all) {
        items = [];
        const onPage = (fetched: number) => progress(`Fetched ${fetched} diagrams…`);
        for await (const item of c.allDiagrams({ ...filters, onPage, ...(opts.limit ? { pageSize: opts.limit } : {}) })) items.push(item);
        clearProgress();
      } else {
        const page = await c.listDiagrams({ ...filters, ...(opts.limit ? { limit: opts.limit } : {}) });
        items = page.items;
        nextCursor = page.nextCursor;
      }
      if (opts.json) return json({ items, nextCursor });
      const narrowed = opts.search !== undefined || opts.folder !== undefined || opts.starred !== undefined;
      if (items.length === 0) return out(dim(narrowed ? 'No diagrams match.' : opts.filter === 'trash' ? 'The trash is empty.' : opts.shared ? 'Nothing is shared with you.' : 'No diagrams.'));
      if (others) {
        table(['ID', 'UPDATED', 'ROLE', 'TITLE'], items.map((d) => [d.id, d.updatedAt.replace('T', ' ').slice(0, 16), d.role ?? '-', d.title]));
        if (nextCursor) out(dim('More diagrams exist; use --all to list every one.'));
        return;
      }
      const paths = items.some((d) => d.folderId) ? folderPaths((await c.listFolders()).items) : new Map<string, string>();
      table(
        ['ID', 'UPDATED', 'FOLDER', 'TITLE'],
        // A folder the caller cannot list (another owner's) is shown by its short id.
        items.map((d) => [d.id, d.updatedAt.replace('T', ' ').slice(0, 16), d.folderId ? (paths.get(d.folderId) ?? d.folderId.slice(0, 8)) : '-', d.title]),
      );
      if (nextCursor) out(dim('More diagrams exist; use --all to list every one.'));
    });
  diagrams
    .command('get <id>')
    .description('print a diagram, scene included, as JSON')
    .action(async (id: string) => json(await client().getDiagram(id)));
  diagrams
    .command('view <id>')
    .description('show a diagram\'s title, folder, size and editor URL; --web opens it in the editor')
    .option('-w, --web', 'open the diagram in the browser instead')
    .addHelpText('after', `${examples('drawbridge diagrams view ID', 'drawbridge diagrams view ID --web')}\n--web opens the URL with BROWSER when set, else xdg-open, open or start.\n`)
    .action(async (id: string, opts: { web?: boolean }) => {
      const c = client();
      const d = await c.getDiagram(id);
      const url = editorUrlOf(d, apiUrl());
      if (opts.web) return openWeb(url, { urlShown: false });
      const folder = d.folderId ? (folderPaths((await c.listFolders()).items).get(d.folderId) ?? d.folderId) : '(top level)';
      out(bold(d.title));
      out(`id:        ${d.id}`);
      out(`folder:    ${folder}`);
      out(`updated:   ${d.updatedAt.replace('T', ' ').slice(0, 16)}`);
      out(`elements:  ${d.scene.elements.length}`);
      if (d.deletedAt) out(`trashed:   ${d.deletedAt.replace('T', ' ').slice(0, 16)}`);
      out(`editor:    ${url}`);
    });
  diagrams
    .command('create [file]')
    .description('create a diagram from a Mermaid or DOT file, a DiagramSpec (laid out by the server) or a raw scene; prints its editor URL')
    .option('--language <language>', 'the language of [file]: mermaid or dot (default: from its extension, .mmd or .dot)')
    .option('--spec <file>', 'spec JSON file (a flowchart, or a sequence, class or ER diagram), or - for standard input')
    .option('--scene <file>', 'Excalidraw scene JSON file (.excalidraw), a PNG or SVG that carries its scene, or - for standard input')
    .option('--title <title>', 'title')
    .option('--folder <folder>', 'folder name, Parent/Child path or id (default: the top level)')
    .option('-w, --web', 'open the new diagram in the browser')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      examples(
        'drawbridge diagrams create flow.mmd --title "Checkout flow"',
        'drawbridge diagrams create services.dot --folder Architecture --web',
        'drawbridge diagrams create --spec flow.json --title "Checkout flow"',
        'cat scene.excalidraw | drawbridge diagrams create --scene - --json',
        'cat flow.txt | drawbridge diagrams create - --language mermaid',
      ),
    )
    .action(async (file: string | undefined, opts: { language?: string; spec?: string; scene?: string; title?: string; folder?: string; web?: boolean; json?: boolean }) => {
      if ([file, opts.spec, opts.scene].filter(Boolean).length !== 1) throw new CliFailure(EXIT.usage, 'give exactly one of a Mermaid or DOT file, --spec or --scene');
      if (opts.language !== undefined && !file) throw new CliFailure(EXIT.usage, '--language names the language of a Mermaid or DOT file: give the file');
      const c = client();
      const folderId = opts.folder === undefined ? undefined : await folderIdOf(c, opts.folder, { allowRoot: true });
      const created = await c.createDiagram({
        ...(opts.title !== undefined ? { title: opts.title } : {}),
        ...(folderId !== undefined ? { folderId } : {}),
        ...(file ? { source: await readDiagramSource(file, opts.language) } : {}),
        ...(opts.spec ? { spec: await readSpec(opts.spec) } : {}),
        ...(opts.scene ? { scene: await readScene(opts.scene) } : {}),
      });
      warnAbout(created.warnings);
      const url = editorUrlOf(created, apiUrl());
      if (opts.json) json(created);
      else {
        out(`Created ${bold(created.title)} ${created.id} (${created.elementCount} elements)`);
        out(url);
      }
      if (opts.web) await openWeb(url, { urlShown: !opts.json });
    });
  diagrams
    .command('rename <id> <title>')
    .description('change the title')
    .addOption(jsonOpt())
    .action(async (id: string, title: string, opts: { json?: boolean }) => {
      const d = await client().updateDiagram(id, { title });
      if (opts.json) return json(d);
      out(`Renamed ${d.id} to ${bold(d.title)}`);
    });
  diagrams
    .command('move <id> <folder>')
    .description('move into a folder (name, Parent/Child path or id), or to the top level with "root"')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams move ID Architecture', 'drawbridge diagrams move ID Work/Architecture', 'drawbridge diagrams move ID root'))
    .action(async (id: string, folder: string, opts: { json?: boolean }) => {
      const c = client();
      const d = await c.updateDiagram(id, { folderId: await folderIdOf(c, folder, { allowRoot: true }) });
      if (opts.json) return json(d);
      out(`Moved ${d.id} to ${d.folderId ? (isFolderId(folder) ? d.folderId : folder) : 'the top level'}`);
    });
  diagrams
    .command('trash <id>')
    .description('move to the trash (needs the delete capability)')
    .action(async (id: string) => {
      await client().trashDiagram(id);
      out(`Moved ${id} to the trash.`);
    });
  diagrams
    .command('restore <id>')
    .description('restore from the trash')
    .action(async (id: string) => {
      await client().restoreDiagram(id);
      out(`Restored ${id}.`);
    });
  diagrams
    .command('edit <id>')
    .description('add nodes and edges or update nodes: the file holds { addNodes?, addEdges?, updateNodes? }')
    .requiredOption('--file <file>', 'edit JSON file, or - for standard input')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { file: string; json?: boolean }) => {
      const result = await client().editDiagram(id, (await readJson(opts.file)) as never);
      if (opts.json) return json(result);
      out(`Added ${result.added.length}, updated ${result.updated.length}, merged ${result.merged}.`);
    });
  diagrams
    .command('regenerate <id> [file]')
    .description('replace the content from a Mermaid or DOT file, a new spec or a scene')
    .option('--language <language>', 'the language of [file]: mermaid or dot (default: from its extension, .mmd or .dot)')
    .option('--spec <file>', 'spec JSON file (a flowchart, or a sequence, class or ER diagram), or -')
    .option('--scene <file>', 'scene JSON file, a PNG or SVG that carries its scene, or -')
    .option('--title <title>', 'new title')
    .option('--if-unchanged', 'refuse (409 stale_read) if the diagram changed since it was read')
    .addOption(new Option('--layout <layout>', 'keep: what stays keeps its place; fresh: lay everything out again (default: keep once the diagram was changed in place)').choices(['keep', 'fresh']))
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams regenerate ID flow.mmd', 'drawbridge diagrams regenerate ID services.dot --if-unchanged', 'drawbridge diagrams regenerate ID --spec flow.json --layout fresh'))
    .action(async (id: string, file: string | undefined, opts: { language?: string; spec?: string; scene?: string; title?: string; ifUnchanged?: boolean; layout?: 'keep' | 'fresh'; json?: boolean }) => {
      if ([file, opts.spec, opts.scene].filter(Boolean).length !== 1) throw new CliFailure(EXIT.usage, 'give exactly one of a Mermaid or DOT file, --spec or --scene');
      if (opts.language !== undefined && !file) throw new CliFailure(EXIT.usage, '--language names the language of a Mermaid or DOT file: give the file');
      if (opts.layout !== undefined && opts.scene !== undefined) throw new CliFailure(EXIT.usage, '--layout applies to a Mermaid or DOT file or a spec: a scene is stored as it is');
      const c = client();
      let expectedUpdatedAt: string | undefined;
      if (opts.ifUnchanged) expectedUpdatedAt = (await c.getDiagram(id)).docUpdatedAt ?? undefined;
      const content = file ? { source: await readDiagramSource(file, opts.language) } : opts.spec ? { spec: await readSpec(opts.spec) } : { scene: await readScene(opts.scene!) };
      const result = await c.regenerateDiagram(id, {
        ...content,
        ...(opts.title !== undefined ? { title: opts.title } : {}),
        ...(expectedUpdatedAt ? { expectedUpdatedAt } : {}),
        ...(opts.layout !== undefined ? { layout: opts.layout } : {}),
      });
      warnAbout(result.warnings);
      if (opts.json) return json(result);
      const kept = result.layout === 'keep' ? `; kept ${result.kept!.length} nodes in place, placed ${result.placed!.length}, removed ${result.removed!.length}` : result.layout === 'fresh' ? '; laid out afresh' : '';
      out(`Regenerated ${result.id}: ${result.replaced} elements, ${result.orphanedComments} orphaned comments${kept}.`);
    });
  diagrams
    .command('patch <id>')
    .description('apply element operations: the file holds { ops } or an array of ops')
    .requiredOption('--file <file>', 'patch JSON file, or -')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { file: string; json?: boolean }) => {
      const data = await readJson(opts.file);
      const body = Array.isArray(data) ? { ops: data } : (data as { ops: unknown[] });
      if (!body || typeof body !== 'object' || !Array.isArray(body.ops)) throw new CliFailure(EXIT.usage, 'the patch file must hold { "ops": [...] } or an array of ops');
      const result = await client().patchDiagram(id, body);
      if (opts.json) return json(result);
      out(`Applied ${result.applied} ops: ${result.elements} elements, ${result.deleted} deleted.`);
    });
  diagrams
    .command('publish <id>')
    .description('enable or disable the public link (needs the publish capability)')
    .option('--enable', 'enable the public link')
    .option('--disable', 'disable the public link')
    .option('--password <password>', 'require a password')
    .option('--clear-password', 'remove the password')
    .addOption(jsonOpt())
    .addHelpText('after', '\nSee the public link\'s state with `drawbridge publish status ID`.\n')
    .action(async (id: string, opts: { enable?: boolean; disable?: boolean; password?: string; clearPassword?: boolean; json?: boolean }) => {
      if (Boolean(opts.enable) === Boolean(opts.disable)) throw new CliFailure(EXIT.usage, 'give exactly one of --enable or --disable');
      await setPublicLink(id, { ...opts, enabled: Boolean(opts.enable) });
    });
  diagrams
    .command('source <id>')
    .description('print the diagram as text: the spec it draws (JSON), Mermaid or DOT; what the text cannot say goes to standard error')
    .addOption(new Option('--language <language>', 'spec, mermaid or dot').choices(['spec', 'mermaid', 'dot']).default('spec'))
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams source ID --language mermaid > flow.mmd', 'drawbridge diagrams regenerate ID flow.mmd'))
    .action(async (id: string, opts: { language: 'spec' | 'mermaid' | 'dot'; json?: boolean }) => {
      const source = await client().diagramSource(id, opts.language);
      if (opts.json) return json(source);
      out(source.text.replace(/\n$/, ''));
      for (const warning of source.warnings) note(`warning: ${warning.message}${warning.elementIds.length > 0 ? ` (${warning.elementIds.join(', ')})` : ''}`);
    });
  diagrams
    .command('lint <id>')
    .description('report layout problems (overlaps, clipped labels, unbound arrows, …)')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { json?: boolean }) => {
      const report = await client().lintDiagram(id);
      if (opts.json) return json(report);
      if (report.issues.length === 0) return out('No issues.');
      for (const issue of report.issues) out(`${paint('33', issue.kind)}  ${issue.message}  ${dim(issue.elementIds.join(', '))}`);
    });
  return diagrams;
}
