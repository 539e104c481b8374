/**
 * A diagram's source text as a client sends it: `{ "language": "mermaid" |
 * "dot", "text": "…" }`, the third kind of content beside a spec and a scene.
 */
import { z } from 'zod';
import { payloadProblem, type Problem } from '../problems.ts';

const SOURCE_LANGUAGES = ['mermaid', 'dot'] as const;
export type SourceLanguage = (typeof SOURCE_LANGUAGES)[number];

/** The longest source text taken, in characters (a 1,000-node diagram written out fits well within it). */
const SOURCE_MAX_CHARS = 200_000;

export const SourceContent = z
  .strictObject({
    language: z.enum(SOURCE_LANGUAGES).meta({ description: 'mermaid (flowchart/graph and stateDiagram) or dot (Graphviz digraph/graph)' }),
    text: z.string().max(SOURCE_MAX_CHARS).meta({ description: `The diagram's source, at most ${SOURCE_MAX_CHARS} characters, as it would sit in a .mmd or .dot file (no Markdown fences)` }),
  })
  .meta({
    id: 'SourceContent',
    description: 'A diagram written in Mermaid or Graphviz DOT; the server reads it into a spec and lays it out. What the drawing cannot show is listed as warnings in the answer.',
    examples: [{ language: 'mermaid', text: 'flowchart LR\n  web[Web app] -->|HTTPS| api[Orders API]\n  api --> db[(Orders DB)]' }],
  });
export type SourceContent = z.infer<typeof SourceContent>;

/** The problem with the source's own shape (`{ language, text }`), if any. */
export function sourceShapeProblem(input: unknown): Problem | null {
  const payload = payloadProblem(input, 'source');
  if (payload) return payload;
  const result = SourceContent.safeParse(input);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  const field = issue.path[0];
  const path = field === undefined ? '' : `/${String(field)}`;
  if (field === 'language') {
    return { code: 'INVALID_SOURCE', message: `source.language must be one of ${SOURCE_LANGUAGES.join(', ')}; got ${JSON.stringify((input as { language?: unknown }).language)}`, path, hint: 'Mermaid flowcharts and state diagrams are "mermaid"; Graphviz files are "dot"' };
  }
  if (field === 'text') {
    const text = (input as { text?: unknown }).text;
    if (typeof text === 'string') return { code: 'INVALID_SOURCE', message: `source.text is ${text.length} characters long; the limit is ${SOURCE_MAX_CHARS}`, path, hint: 'split the diagram in two' };
    return { code: 'INVALID_SOURCE', message: 'source.text must be a string: the diagram as it would sit in its file', path };
  }
  if (issue.code === 'unrecognized_keys') return { code: 'INVALID_SOURCE', message: `source has an unknown field "${issue.keys[0]}"`, path: `/${issue.keys[0]}`, hint: 'a source is { "language": "mermaid" | "dot", "text": "…" }' };
  return { code: 'INVALID_SOURCE', message: 'source must be an object { "language": "mermaid" | "dot", "text": "…" }', path };
}
