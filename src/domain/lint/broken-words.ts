import type { LintIssue } from './issue.ts';
import { describeText, isShape, type SceneModel } from './scene-model.ts';

const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;
const SPACE = /\s/u;

/**
 * Texts whose wrapping breaks a word between two of its letters: a line ends
 * in a letter and the next begins with a lower-case one, where what was typed
 * (`originalText`) had no break (`Immedi⏎ate`, `configuratio⏎n`). A break the
 * author typed, one at a space, and one before a capital or after a hyphen or
 * a slash (`Pending⏎Immediate`, `/refresh_⏎configuration`) are where a reader
 * expects one. One issue per text, naming its first such break.
 */
export function brokenWords(model: SceneModel): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const text of model.texts) {
    const at = firstBreakInsideWord(text.content, text.wrapped);
    if (at === null) continue;
    const [start, end] = wordAround(text.content, at);
    const container = text.boundTo && isShape(text.boundTo) ? [text.boundTo.id] : [];
    issues.push({
      kind: 'broken_word',
      elementIds: [text.id, ...container],
      message: `${describeText(text)} is wrapped inside a word: "${text.content.slice(start, at)}⏎${text.content.slice(at, end)}"`,
    });
  }
  return issues;
}

/**
 * Where (an index into `original`) the wrapped text first breaks a line
 * between a letter and a lower-case letter that were adjacent in the original,
 * or null. The wrapped text is the original with line breaks inserted and the
 * spaces before them dropped (as the editor wraps); a text that is not (edited
 * by hand into something else) is left alone.
 */
function firstBreakInsideWord(original: string, wrapped: string): number | null {
  if (original === wrapped || !wrapped.includes('\n')) return null;
  let j = 0;
  for (let i = 0; i < wrapped.length; i++) {
    const c = wrapped[i]!;
    if (c === original[j]) {
      j++;
      continue;
    }
    if (c !== '\n') return null;
    // An inserted break: the spaces it replaces are dropped; between two letters of a word, nothing is.
    if (SPACE.test(original[j] ?? '')) {
      while (j < original.length && SPACE.test(original[j]!) && original[j] !== wrapped[i + 1]) j++;
      continue;
    }
    const [before, after] = [original[j - 1] ?? '', original[j] ?? ''];
    if (LETTER.test(before) && LOWER.test(after)) return j;
  }
  return null;
}

/** Where the word (run of non-space characters) of `text` around index `at` starts and ends. */
function wordAround(text: string, at: number): [number, number] {
  let [start, end] = [at, at];
  while (start > 0 && !SPACE.test(text[start - 1]!)) start--;
  while (end < text.length && !SPACE.test(text[end]!)) end++;
  return [start, end];
}
