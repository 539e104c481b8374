import { z } from 'zod';

/**
 * A tool's input, in two parts:
 *
 * - **plain arguments** (ids, titles, options) are zod schemas checked here,
 *   before the tool runs, with a one-sentence `bad_request` on a mistake;
 * - **content arguments** (a DiagramSpec, an edit fragment, patch ops, a
 *   scene) are advertised with the very JSON Schema the server validates them
 *   with, but are NOT checked here: they go to the API as sent, and a mistake
 *   comes back as the API's problems, each with its hint, instead of a raw zod
 *   error from the MCP SDK.
 *
 * How: the MCP SDK lists a tool's inputSchema by converting the zod object it
 * was given with zod's toJSONSchema, and validates arguments by parsing them
 * with that same object. A zod schema may carry its own JSON Schema
 * (`_zod.toJSONSchema`, zod's documented override, which toJSONSchema uses
 * instead of converting). So the SDK is given a loose object that accepts any
 * arguments, carrying as its JSON Schema the one generated from the real
 * schemas (plain and content fields together, content components under
 * `$defs`); the tool wrapper then checks the plain fields itself.
 */
export interface ToolInputDefinition<F extends z.ZodRawShape, C extends z.ZodRawShape> {
  /** Plain arguments, checked before the tool runs. */
  fields: F;
  /** Content arguments: advertised with their schema, checked by the API only. */
  content?: C;
  /** One valid argument object, shown in the description and advertised as `examples`. */
  example: Record<string, unknown>;
  /** JSON Schema keywords added at the root (e.g. a `oneOf` saying which arguments exclude each other). */
  root?: Record<string, unknown>;
}

export type ToolArgs<F extends z.ZodRawShape, C extends z.ZodRawShape> = z.output<z.ZodObject<F>> & { [K in keyof C]: unknown };

type Checked<T> = { ok: true; args: T } | { ok: false; message: string };

export interface ToolInput<T> {
  /** For the SDK's registerTool: accepts any object; lists as `json`. */
  sdkSchema: z.ZodType<Record<string, unknown>>;
  /** The advertised JSON Schema (draft 2020-12). */
  json: Record<string, unknown>;
  example: Record<string, unknown>;
  /** Checks the plain arguments (and that required content is present, and no unknown argument). */
  check(args: unknown): Checked<T>;
}

const describePath = (path: PropertyKey[]) => path.map(String).join('.');

/** One sentence naming what is wrong with the arguments, from zod's issues. */
function describeIssues(tool: string, issues: z.core.$ZodIssue[], known: string[]): string {
  const parts = issues.map((issue) => {
    const where = `"${describePath(issue.path)}"`;
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((k) => `"${k}"`).join(', ');
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${names} (it takes ${known.join(', ')})`;
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} is required`;
    if (issue.code === 'invalid_type') return `${where} must be ${issue.expected === 'object' || issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}`;
    if (issue.code === 'invalid_value') return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    return `${where}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}: ${parts.join('; ')}.`;
}

export function toolInput<F extends z.ZodRawShape, C extends z.ZodRawShape = Record<never, never>>(tool: string, definition: ToolInputDefinition<F, C>): ToolInput<ToolArgs<F, C>> {
  const content = (definition.content ?? {}) as C;
  const advertised = z.strictObject({ ...definition.fields, ...content });
  const json = z.toJSONSchema(advertised, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  Object.assign(json, definition.root ?? {}, { examples: [definition.example] });

  // Content is present or absent as its schema says, and otherwise anything: the API judges it.
  const lenientContent = Object.fromEntries(Object.entries(content).map(([key, schema]) => [key, (schema as z.ZodType).isOptional() ? z.unknown().optional() : z.unknown()]));
  const local = z.strictObject({ ...definition.fields, ...lenientContent });
  const known = Object.keys(local.shape);

  const sdkSchema = z.looseObject({});
  sdkSchema._zod.toJSONSchema = () => structuredClone(json);

  return {
    sdkSchema,
    json,
    example: definition.example,
    check(args) {
      const parsed = local.safeParse(args ?? {});
      if (parsed.success) return { ok: true, args: parsed.data as ToolArgs<F, C> };
      return { ok: false, message: describeIssues(tool, parsed.error.issues, known) };
    },
  };
}
