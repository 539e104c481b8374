/**
 * A source (Mermaid or DOT text) read into a spec, with every problem a write
 * of it would meet: the source's own shape, its syntax (line and column), and
 * the checks of the spec it makes. The one entry point the scene workers use
 * for creating, regenerating and validating from a source.
 */
import type { ContentOptions } from '../content-problems.ts';
import type { Problem } from '../problems.ts';
import { type AnySpecInput, type CheckedSpec, checkAnySpec } from '../spec/any-spec.ts';
import { importDot } from './dot.ts';
import { importMermaid } from './mermaid.ts';
import { type SourceContent, type SourceLanguage, sourceShapeProblem } from './schema.ts';
import { type ImportedSource, SourceSyntaxError, type SourceWarning } from './types.ts';

export interface SourceReading {
  /** The spec the source makes, when the source has no problem. */
  spec: AnySpecInput | null;
  /** That spec checked, with its defaults filled in and its arrow ids assigned: what is laid out. */
  checked: CheckedSpec | null;
  warnings: SourceWarning[];
  title: string | null;
  problems: Problem[];
}

const NAMES: Record<SourceLanguage, string> = { mermaid: 'Mermaid', dot: 'DOT' };

function importerOf(language: SourceLanguage): (text: string) => ImportedSource | Promise<ImportedSource> {
  return language === 'mermaid' ? importMermaid : importDot;
}

/**
 * Reads a source. Problems, in the order a write meets them: the source's
 * shape; its syntax (one problem, where the parser stopped); then what the
 * spec it makes would be refused for (a label over the limit, too many nodes),
 * each said of the source.
 */
export async function readSource(input: unknown, options: ContentOptions): Promise<SourceReading> {
  const nothing = { spec: null, checked: null, warnings: [], title: null };
  const shape = sourceShapeProblem(input);
  if (shape) return { ...nothing, problems: [shape] };
  const { language, text } = input as SourceContent;
  let imported: ImportedSource;
  try {
    imported = await importerOf(language)(text);
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    const expected = error.expected.length > 0 ? `expected ${error.expected.slice(0, 8).join(', ')}${error.expected.length > 8 ? '…' : ''}` : undefined;
    return {
      ...nothing,
      problems: [{ code: 'INVALID_SOURCE', message: `the ${NAMES[language]} source does not parse at line ${error.line}, column ${error.column}: ${error.message}`, path: '/text', line: error.line, column: error.column, ...(expected ? { hint: expected } : {}) }],
    };
  }
  const { problems, spec } = checkAnySpec(imported.spec, options);
  return {
    spec: problems.length === 0 ? imported.spec : null,
    checked: problems.length === 0 ? spec : null,
    warnings: imported.warnings,
    title: imported.title ?? null,
    problems: problems.map((problem) => ({ ...problem, message: `read from the ${NAMES[language]} source, ${problem.message}`, path: '/text' })),
  };
}
