/**
 * What the MCP tools share: the result blocks, the argument schemas and examples several tools use,
 * how a spec, Mermaid or DOT argument becomes the API's content, and the shape of a tool's definition.
 * Each file under tools/ registers a group of tools with a ToolKit (src/mcp/tools.ts makes it).
 */
import { z } from 'zod';
import * as S from '../api/schemas.ts';
import { DrawbridgeApiError, type DrawbridgeClient, type ValidateContentBody } from '../client/client.ts';
import type { ContentBlock, FailureContext } from './failures.ts';
import type { Links } from './links.ts';
import type { ToolArgs, ToolInputDefinition } from './tool-input.ts';

/** What a tool returns when its answer is more than one JSON value (an image, SVG text); `structured` is its JSON part. */
export class Blocks {
  readonly content: ContentBlock[];
  readonly structured: Record<string, unknown> | null;
  constructor(content: ContentBlock[], structured: Record<string, unknown> | null = null) {
    this.content = content;
    this.structured = structured;
  }
}

export const jsonBlock = (value: unknown): ContentBlock => ({ type: 'text', text: JSON.stringify(value ?? { ok: true }, null, 2) });
export const pngBlock = (bytes: Uint8Array): ContentBlock => ({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' });

export function describeRenderFailure(error: unknown): string {
  if (error instanceof DrawbridgeApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** An example diagram id, in the examples of the descriptions. */
export const EXAMPLE_ID = '5f0c6f1e-8a4b-4c1d-9e2f-3a7b6c5d4e10';
export const EXAMPLE_FOLDER = '9b2d7e4a-1c3f-4a5b-8d6e-0f1a2b3c4d50';
export const EXAMPLE_WORKSPACE = '3e8f1a2b-7c4d-4e5f-9a6b-1c2d3e4f5a60';
export const EXAMPLE_USER = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c70';

export const diagramId = z.string().describe('Diagram id (UUID), as returned by list_diagrams or generate_diagram');
export const title = z.string().optional().describe('Diagram title');
export const folderId = z.guid().nullable().optional().describe('UUID of a folder (from list_folders), or null for the root');
export const revision = z.string().optional().describe('The docUpdatedAt you read last: the write is refused with stale_read if the diagram changed since');
export const renderQuality = S.RenderQuality.optional().describe('faithful (default): the editor\'s own look, hand-drawn strokes and fonts; fast: a plain preview, quicker');
/** The render options export_diagram takes, as the API reads them (docs/rendering.md, "Options"). */
export const renderLook = {
  width: z.number().int().min(256).max(4096).optional().describe('PNG width in pixels, 256 to 4096 (default 1024); the height follows. For SVG: the document\'s width. Not with scale'),
  scale: z.number().min(1).max(4).optional().describe('PNG pixels per drawing pixel, 1 to 4 (a PNG over 4096 × 4096 pixels is scaled down to that). Not with width'),
  padding: z.number().int().min(0).max(200).optional().describe('Space around the drawing in drawing pixels, 0 to 200 (default 10)'),
  background: z.string().optional().describe('transparent, white, or a hex colour #rgb / #rrggbb: the colour behind the drawing, in either theme (default white; #121212 in the dark theme)'),
  theme: z.enum(['light', 'dark']).optional().describe('dark: as the editor exports dark mode (light strokes on a dark canvas); default light'),
  elements: z.array(z.string()).min(1).optional().describe('Draw only these element ids (from get_scene), with the text bound to them and what frames among them hold; an id the diagram does not draw is invalid_selection. Not with frame'),
  frame: z.string().optional().describe('Draw only this frame (its element id), cropped to it as the editor exports a frame; not a frame is invalid_selection. Not with elements'),
};

export const iconQuery = { q: S.IconListQuery.shape.q, category: S.IconListQuery.shape.category };

/** Results that name a diagram: its id and where a person opens it; anything else the API said is kept. */
export const linked = (shape: z.ZodRawShape = {}) => z.looseObject({ id: z.string(), editorUrl: z.string().describe('Where a person opens the diagram in the editor'), ...shape });

/** Exactly one of the given arguments. */
export const exactlyOne = (...names: string[]) => ({ oneOf: names.map((name) => ({ required: [name] })) });

/** A diagram written in Mermaid or DOT, as the tools that take a spec also take it. */
export const sourceFields = {
  mermaid: z.string().optional().describe('Instead of spec: a Mermaid flowchart (graph/flowchart), stateDiagram-v2, sequenceDiagram, classDiagram or erDiagram, as written inside a ```mermaid block, without the fences'),
  dot: z.string().optional().describe('Instead of spec: a Graphviz DOT digraph or graph'),
};
type SourceArgs = { mermaid?: string | undefined; dot?: string | undefined };
/** The API's content for a tool's spec, mermaid or dot argument; bad_request unless exactly one of `names` is given. */
export function contentOf(a: SourceArgs & Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const given = names.filter((key) => a[key] !== undefined);
  if (given.length !== 1) throw new DrawbridgeApiError(400, 'bad_request', `Give exactly one of ${names.join(', ')} (got ${given.length === 0 ? 'none' : given.join(' and ')})`, null);
  const key = given[0]!;
  if (key === 'mermaid' || key === 'dot') return { source: { language: key, text: a[key] } };
  return { [key]: a[key] };
}
/** What a failed call's content is checked as, to list every problem with it; none unless exactly one of `names` is given. */
export function validationOf(a: SourceArgs & Record<string, unknown>, names: readonly string[]): ValidateContentBody | undefined {
  const given = names.filter((key) => a[key] !== undefined);
  return given.length === 1 ? (contentOf(a, names) as ValidateContentBody) : undefined;
}

interface ToolDefinition<F extends z.ZodRawShape, C extends z.ZodRawShape> extends ToolInputDefinition<F, C> {
  description: string;
  output?: z.ZodObject;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  /** What a failure is about: the diagram named, the content sent (for every problem at once). */
  about?: (args: ToolArgs<F, C>) => Omit<FailureContext, 'tool'>;
}

/** Registers one tool: its definition (description, arguments, example, output) and what it does with a client. */
export type RegisterTool = <F extends z.ZodRawShape, C extends z.ZodRawShape = Record<never, never>>(
  name: string,
  definition: ToolDefinition<F, C>,
  run: (args: ToolArgs<F, C>, client: DrawbridgeClient) => Promise<unknown>,
) => void;

/** What a file of tools registers them with. */
export interface ToolKit {
  tool: RegisterTool;
  /** A result that names a diagram, with where a person opens it. */
  link: Links['with'];
}

/** The annotations of a tool that changes nothing. */
export const read = { readOnlyHint: true };
/** What a failure of a tool whose `id` argument is a diagram is about. */
export const onDiagram = (a: { id: string }) => ({ diagramId: a.id });
