/**
 * What reading a diagram's source text (Mermaid, Graphviz DOT) gives: a spec
 * in its JSON input form, which then goes through the spec's own checks and
 * layout like any other, and warnings for what the spec cannot draw.
 */
import type { AnySpecInput } from '../spec/any-spec.ts';

/** Something in the source that the drawing leaves out or draws differently; `line` is 1-based. */
export interface SourceWarning {
  line: number;
  message: string;
}

export interface ImportedSource<Spec extends AnySpecInput = AnySpecInput> {
  spec: Spec;
  warnings: SourceWarning[];
  /** The title the source gives itself (Mermaid's `title:` front matter, DOT's graph label), if any. */
  title?: string | null;
}

/** The source does not parse: where (1-based line and column) and what the parser expected there. */
export class SourceSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  readonly expected: string[];

  constructor(message: string, line: number, column: number, expected: string[] = []) {
    super(message);
    this.name = 'SourceSyntaxError';
    this.line = line;
    this.column = column;
    this.expected = expected;
  }
}
