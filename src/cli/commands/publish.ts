/** `publish status|enable|disable` (also `diagrams publish`): a diagram's public link and the Markdown that embeds it. */
import type { Command } from 'commander';
import { embedMarkdown } from '../../api/embed.ts';
import { type CliContext, CliFailure, EXIT } from '../context.ts';

/** Changes a diagram's public link and says what it now is; shows the embed Markdown when the image is public. */
export function publicLinkActions(ctx: CliContext) {
  const { client, json, out, bold } = ctx;
  const setPublicLink = async (id: string, opts: { enabled: boolean; password?: string; clearPassword?: boolean; json?: boolean }) => {
    if (opts.password !== undefined && opts.clearPassword) throw new CliFailure(EXIT.usage, 'give --password or --clear-password, not both');
    const link = await client().setPublicLink(id, {
      enabled: opts.enabled,
      ...(opts.password !== undefined ? { password: opts.password } : opts.clearPassword ? { password: null } : {}),
    });
    if (opts.json) return json(link);
    out(link.enabled ? `Public at ${bold(link.url ?? '')}${link.hasPassword ? ' (password protected)' : ''}` : 'Public link disabled.');
    await showEmbed(id, link);
  };
  /** The Markdown that embeds a published diagram's image, when it has one (published, no password). */
  const showEmbed = async (id: string, link: { enabled: boolean; hasPassword: boolean; url: string | null }) => {
    if (!link.enabled || link.hasPassword || link.url === null) return;
    const { title } = await client().getDiagram(id);
    out(`Embed:       ${embedMarkdown(title, link.url)}`);
  };
  return { setPublicLink, showEmbed };
}

export function addPublishCommands(program: Command, ctx: CliContext): void {
  const { bold, out, json, client, jsonOpt, examples } = ctx;
  const { setPublicLink, showEmbed } = publicLinkActions(ctx);
  const publish = program.command('publish').description("see and change a diagram's public link (a read-only page anyone with the URL can open)");
  publish
    .command('status <id>')
    .description('show whether the public link is enabled, its URL and whether it needs a password')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge publish status ID', 'drawbridge publish status ID --json   # {"slug","enabled","hasPassword","version","url"}'))
    .action(async (id: string, opts: { json?: boolean }) => {
      const link = await client().getPublicLink(id);
      if (opts.json) return json(link);
      out(`Public link: ${link.enabled ? bold('enabled') : link.slug === null ? 'disabled (never published)' : 'disabled'}`);
      out(`URL:         ${link.url ?? '-'}`);
      out(`Password:    ${link.hasPassword ? 'set' : 'none'}`);
      await showEmbed(id, link);
    });
  publish
    .command('enable <id>')
    .description('enable the public link (needs the publish capability)')
    .option('--password <password>', 'require a password')
    .option('--clear-password', 'remove the password')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge publish enable ID', 'drawbridge publish enable ID --password s3cret', 'drawbridge publish enable ID --clear-password'))
    .action((id: string, opts: { password?: string; clearPassword?: boolean; json?: boolean }) => setPublicLink(id, { ...opts, enabled: true }));
  publish
    .command('disable <id>')
    .description('disable the public link; its URL stops answering (needs the publish capability)')
    .addOption(jsonOpt())
    .action((id: string, opts: { json?: boolean }) => setPublicLink(id, { ...opts, enabled: false }));
}
