/**
 * What is wrong with a piece of content (a spec, an edit fragment, patch ops,
 * a scene), every problem at once: each with its catalogue code, a message
 * naming the offending item as the write endpoints always have (`nodes[3]
 * (id "db")`, `edges[7] "api -> db"`), a JSON Pointer into the checked value,
 * and, where the mistake is a common one, a one-line hint of the fix.
 *
 * Problems come in two phases: what the content's zod schema finds (its
 * shape), in document order, then what the semantic checks find (duplicates,
 * dangling edges, parents, collisions, the icon catalog), in the order they
 * run. The first problem is the one a write endpoint answers with, so a check
 * of the shape alone (the HTTP edge's) and the full check agree on it.
 */
import { ApiError, type ErrorCode } from '../errors.ts';
import { inspectPayload, type PayloadProblem } from './payload.ts';

/** The codes a content problem may carry: the content-model codes of the catalogue. */
export const CONTENT_CODES = [
  'INVALID_SPEC',
  'UNSUPPORTED_VERSION',
  'MISSING_NODE_ID',
  'DUPLICATE_NODE_ID',
  'UNKNOWN_SHAPE',
  'UNKNOWN_ICON',
  'DANGLING_EDGE',
  'MALFORMED_SHORTHAND',
  'MALFORMED_EDGE',
  'SPEC_TOO_LARGE',
  'ID_COLLISION',
  'PROTO_KEY',
  'NOT_A_SCENE',
  'BAD_LINK_SCHEME',
  'SCENE_TOO_LARGE',
  'INVALID_SOURCE',
] as const satisfies readonly ErrorCode[];
export type ContentCode = (typeof CONTENT_CODES)[number];

export interface Problem {
  code: ContentCode;
  message: string;
  /** JSON Pointer (RFC 6901) into the checked value: `/nodes/3/shape`; `""` for the value itself. */
  path: string;
  /** One line: how to fix it. */
  hint?: string;
  /** In a source's text (Mermaid, DOT): the 1-based line and column where the parser stopped. */
  line?: number;
  column?: number;
}

export type PathKey = string | number;

/** `["nodes", 3, "shape"]` → `/nodes/3/shape`, with `~` and `/` escaped as RFC 6901 says. */
export function pointer(path: readonly PathKey[]): string {
  return path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The error a write endpoint answers with: the problem's code, its message with the hint after it. */
export function problemError(problem: Problem): ApiError {
  return new ApiError(problem.code, problem.hint ? `${problem.message}; ${problem.hint}` : problem.message);
}

/** Throws the first problem, if there is one. */
export function throwFirst(problems: readonly Problem[]): void {
  if (problems.length > 0) throw problemError(problems[0]!);
}

interface Ranked {
  problem: Problem;
  rank: readonly number[];
  seq: number;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Collects problems. Schema problems carry a rank (their place in the
 * document: `[section, index, field]`) and are listed sorted by it; semantic
 * problems follow in the order they were reported.
 */
export class ProblemList {
  private readonly shape: Ranked[] = [];
  private readonly semantic: Problem[] = [];
  private readonly seen = new Set<string>();

  /** A problem with the content's shape, at `rank` in document order. */
  schema(rank: readonly number[], problem: Problem): void {
    const key = `${problem.code}\u0000${problem.path}\u0000${problem.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.shape.push({ problem: withoutEmptyHint(problem), rank, seq: this.shape.length });
  }

  /** A problem the semantic checks found. */
  add(problem: Problem): void {
    this.semantic.push(withoutEmptyHint(problem));
  }

  get empty(): boolean {
    return this.shape.length === 0 && this.semantic.length === 0;
  }

  /** Whether the shape of the content is right (semantic problems aside). */
  get shapeOk(): boolean {
    return this.shape.length === 0;
  }

  /** Every problem: the schema's in document order, then the semantic ones. */
  list(): Problem[] {
    const sorted = [...this.shape].sort((a, b) => compareRanks(a.rank, b.rank) || a.seq - b.seq);
    return [...sorted.map((r) => r.problem), ...this.semantic];
  }
}

function withoutEmptyHint(problem: Problem): Problem {
  if (problem.hint === undefined || problem.hint === '') {
    const { hint: _hint, ...rest } = problem;
    return rest;
  }
  return problem;
}

/** A poisoned, too deep or non-finite payload as a problem; the content is not looked at further. */
export function payloadProblem(value: unknown, root: string): Problem | null {
  const found: PayloadProblem | null = inspectPayload(value, root);
  if (found === null) return null;
  const path = pointer(found.keys);
  if (found.kind === 'forbidden_key') return { code: 'PROTO_KEY', message: `${found.path}: the key "${found.key}" is not allowed`, path, hint: 'remove the key: __proto__, constructor and prototype are refused anywhere in a payload' };
  return { code: 'INVALID_SPEC', message: `${found.path}: ${found.kind === 'too_deep' ? 'nests too deeply' : 'number is out of range'}`, path };
}


/** A domain check's thrown error as a problem (its code is a content code; anything else would be a bug, reported as INVALID_SPEC). */
export function problemFrom(error: ApiError, path: string, hint?: string): Problem {
  const code = (CONTENT_CODES as readonly string[]).includes(error.code) ? (error.code as ContentCode) : 'INVALID_SPEC';
  return hint ? { code, message: error.message, path, hint } : { code, message: error.message, path };
}
