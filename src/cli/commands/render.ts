/** `render` and `diagrams render`: diagrams to PNG, SVG, PDF or JSON files. */
import fs from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import type { RenderFormat, RenderQuality } from '../../api/schemas.ts';
import type { DrawbridgeClient } from '../../client/client.ts';
import { byteSize, type CliContext, CliFailure, EXIT, FORMAT_BY_EXTENSION, parseDecimal, parseWholeNumber } from '../context.ts';

export function addRenderCommands(program: Command, diagrams: Command, ctx: CliContext): void {
  const { stdout, bold, progress, clearProgress, out, json, note, client, jsonOpt, examples } = ctx;
  type RenderOptions = {
    output?: string;
    dir?: string;
    format?: RenderFormat;
    quality?: RenderQuality;
    rev?: string;
    json?: boolean;
    width?: number;
    scale?: number;
    padding?: number;
    background?: string;
    theme?: 'light' | 'dark';
    elements?: string;
    frame?: string;
    embedScene?: boolean;
  };
  /** What a render wrote, as --json describes it (with `rev` when a revision was rendered). */
  type Rendered = ({ id: string; file: string; format: RenderFormat; bytes: number; quality: RenderQuality; note: string | null } | { id: string; file: null; format: RenderFormat; isEmpty: true }) & { rev?: string };

  /** Renders one diagram to `file` (or standard output for `-`); reports notes and an empty diagram on standard error. */
  const renderOne = async (c: DrawbridgeClient, id: string, file: string, format: RenderFormat, opts: RenderOptions): Promise<Rendered> => {
    const rev = opts.rev !== undefined ? { rev: opts.rev } : {};
    const look = {
      width: opts.width,
      scale: opts.scale,
      padding: opts.padding,
      background: opts.background as `#${string}` | 'transparent' | undefined,
      theme: opts.theme,
      elementIds: opts.elements?.split(','),
      frameId: opts.frame,
    };
    const asked = { ...(opts.quality ? { quality: opts.quality } : {}), ...rev, ...look, ...(opts.embedScene ? { embed: 'scene' as const } : {}) };
    let bytes: Uint8Array | null;
    let delivered: RenderQuality;
    let renderNote: string | null;
    if (format === 'json') {
      const envelope = await c.renderDiagram(id, { format: 'json', ...asked });
      bytes = new TextEncoder().encode(`${JSON.stringify(envelope, null, 2)}\n`);
      delivered = envelope.quality;
      renderNote = envelope.note ?? null;
    } else {
      const image = await c.renderDiagram(id, { format, ...asked });
      ({ bytes, quality: delivered, note: renderNote } = image);
    }
    if (bytes === null) {
      if (!opts.json) note(`Diagram ${id}${opts.rev !== undefined ? ` at revision ${opts.rev}` : ''} is empty: nothing to render, nothing written.`);
      return { id, ...rev, file: null, format, isEmpty: true };
    }
    if (renderNote) note(`note: ${renderNote}${renderNote === 'faithful_unavailable' ? ' (the fast preview was delivered)' : ''}`);
    if (file === '-') {
      clearProgress();
      stdout.write(bytes);
    } else {
      try {
        fs.writeFileSync(file, bytes);
      } catch (error) {
        throw new CliFailure(EXIT.usage, `cannot write ${file}: ${(error as Error).message}`);
      }
      if (!opts.json) out(`Wrote ${bold(file)} (${format.toUpperCase()}, ${byteSize(bytes.length)}, ${delivered} quality)`);
    }
    return { id, ...rev, file, format, bytes: bytes.length, quality: delivered, note: renderNote };
  };

  const render = async (ids: string[], opts: RenderOptions) => {
    if (opts.output !== undefined && opts.dir !== undefined) throw new CliFailure(EXIT.usage, 'give -o FILE or --dir DIR, not both');
    if (opts.output !== undefined && ids.length > 1) throw new CliFailure(EXIT.usage, '-o names one file; to render several diagrams give --dir DIR (each is written as DIR/ID.FORMAT)');
    if (opts.rev !== undefined && ids.length > 1) throw new CliFailure(EXIT.usage, '--rev names a revision of one diagram; give one id with it');
    const toStdout = opts.output === '-';
    let format = opts.format;
    if (!format && opts.output && !toStdout) {
      format = FORMAT_BY_EXTENSION[path.extname(opts.output).toLowerCase()];
      if (!format) throw new CliFailure(EXIT.usage, `cannot tell the format from "${opts.output}": name a .png, .svg or .json file (or .pdf for a PDF), or give --format`);
    }
    format ??= 'png';
    if (toStdout && opts.json) throw new CliFailure(EXIT.usage, '--json describes a written file; it cannot share standard output with -o -');
    if (opts.width !== undefined && opts.scale !== undefined) throw new CliFailure(EXIT.usage, 'give --width or --scale, not both');
    if (opts.elements !== undefined && opts.frame !== undefined) throw new CliFailure(EXIT.usage, 'give --elements or --frame, not both');
    if (toStdout && (format === 'png' || format === 'pdf') && stdout.isTTY) {
      throw new CliFailure(EXIT.usage, `refusing to write ${format.toUpperCase()} bytes to a terminal; redirect standard output or give -o FILE`);
    }
    if (opts.dir !== undefined && !fs.statSync(opts.dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliFailure(EXIT.usage, `--dir ${opts.dir} is not a directory`);
    const c = client();
    const results: Rendered[] = [];
    for (const [index, id] of ids.entries()) {
      if (ids.length > 1) progress(`Rendering ${index + 1} of ${ids.length}: ${id}…`);
      const file = opts.output ?? path.join(opts.dir ?? '', `${id}${opts.rev !== undefined ? `-${opts.rev}` : ''}.${format}`);
      results.push(await renderOne(c, id, file, format, opts));
    }
    clearProgress();
    // One diagram keeps its single descriptor; several are an array in the order given.
    if (opts.json) json(ids.length === 1 ? results[0] : results);
  };
  const renderCommand = (parent: Command, description: string) =>
    parent
      .command('render <ids...>')
      .description(description)
      .option('-o, --output <file>', 'where to write one diagram: the extension (.png, .svg, .pdf, .json) picks the format; - for standard output (default: ID.png)')
      .option('--dir <dir>', 'write each diagram into this directory as ID.png (or ID.svg, ID.pdf, ID.json with --format)')
      .addOption(new Option('--format <format>', 'png, svg, pdf (one vector page) or json (the envelope with an SVG and a PNG); overrides the extension').choices(['png', 'svg', 'pdf', 'json']))
      .addOption(new Option('--quality <quality>', "faithful (default: the editor's own look) or fast (a plain preview)").choices(['faithful', 'fast']))
      .option('--rev <rev>', 'render this revision of the diagram (a REV from `drawbridge history ID`) instead of its current content; default file ID-REV.png')
      .option('--width <px>', 'PNG width in pixels, 256 to 4096 (default 1024); for SVG the document width', parseWholeNumber('--width'))
      .option('--scale <n>', 'PNG pixels per drawing pixel, 1 to 4, instead of --width', parseDecimal('--scale'))
      .option('--padding <px>', 'space around the drawing, 0 to 200 drawing pixels (default 10)', parseWholeNumber('--padding'))
      .option('--background <colour>', 'transparent, white or #rgb/#rrggbb: the colour behind the drawing (default white; #121212 with --theme dark)')
      .addOption(new Option('--theme <theme>', 'dark draws as the editor exports dark mode (default light)').choices(['light', 'dark']))
      .option('--elements <ids>', 'draw only these element ids (comma-separated), with their labels')
      .option('--frame <id>', 'draw only this frame, cropped to it as the editor exports a frame')
      .option('--embed-scene', 'the PNG or SVG carries the whole scene, as the editor\'s "Embed scene" export: it opens again as an editable drawing (not with PDF)')
      .addOption(jsonOpt())
      .addHelpText(
        'after',
        `${examples(
          'drawbridge render ID -o flow.png',
          'drawbridge render ID -o - --format svg > flow.svg',
          'drawbridge render ID --rev r12 -o before.png',
          'drawbridge render ID -o wide.png --width 2048 --theme dark',
          'drawbridge render ID -o part.svg --frame FRAME_ID --background transparent',
          'drawbridge render ID -o flow.pdf',
          'drawbridge render ID1 ID2 ID3 --dir out/',
          "drawbridge diagrams list --all --json | jq -r '.items[].id' | xargs drawbridge render --dir out/ --format svg",
        )}\nRendering several diagrams shows its progress on standard error when that is a terminal (not with --quiet).\n`,
      )
      .action(render);
  renderCommand(diagrams, 'render diagrams to PNG (1024 px wide by default), SVG, PDF or JSON envelope files');
  renderCommand(program, 'render diagrams to files (same as `diagrams render`)');
}
