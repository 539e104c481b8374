import type { ZodType } from 'zod';
import { ApiError } from '../errors.ts';
import { inspectPayload } from '../domain/payload.ts';

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** Refuses poisoned or absurdly nested JSON before any schema sees it. */
export function checkPayloadShape(body: unknown): void {
  const problem = inspectPayload(body);
  if (problem?.kind === 'forbidden_key') {
    throw new ApiError('PROTO_KEY', `${problem.path}: the key "${problem.key}" is not allowed anywhere in a payload`);
  }
  if (problem?.kind === 'too_deep') throw new ApiError('bad_request', `${problem.path}: JSON nests too deeply`);
  if (problem?.kind === 'non_finite') throw new ApiError('bad_request', `${problem.path}: number is out of range`);
}

/** Parses with a zod schema; a failure is a 400 bad_request naming the first offending field. */
export function parseWith<T>(schema: ZodType<T>, value: unknown, what: 'body' | 'query'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = formatPath(issue.path);
  if (value === undefined && what === 'body') throw new ApiError('bad_request', 'a JSON request body is required');
  throw new ApiError('bad_request', `${where ? `${where}: ` : `${what}: `}${issue.message}`);
}
