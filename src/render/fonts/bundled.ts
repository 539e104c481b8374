/**
 * The fonts Drawbridge bundles beside the editor's, for what the editor's
 * fonts do not draw: scripts (Noto Sans Arabic, Hebrew, Devanagari, Thai and
 * KR, from @fontsource) and emoji (Twemoji as a colour font, Noto Emoji in
 * one colour). Read from the installed packages (their CSS names each file's
 * unicode-range), so an upgrade brings its fonts along. All are under the SIL
 * Open Font License.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseUnicodeRange } from '../editor-fonts.ts';

const require = createRequire(import.meta.url);

type BundledRole = 'script' | 'colour-emoji' | 'monochrome-emoji';

export interface BundledFace {
  /** The CSS family the face is registered and embedded under. */
  family: string;
  role: BundledRole;
  /** Absolute path of the woff2 file. */
  woff2: string;
  /** Where its TrueType copy goes, relative to the fonts directory: the package, its version and the file. */
  target: string;
  /** The code points the package declares for this file; null: the whole font. */
  ranges: [number, number][] | null;
  /**
   * resvg-js 2.6 misplaces glyphs when a character cluster shapes to several spacing glyphs (Devanagari's
   * vowel signs and reordered marks; emoji sequences vanish): text in these faces is shaped before resvg
   * sees it (see glyph-addressed.ts).
   */
  shapedForResvg: boolean;
}

/** The family the editor's font strings name after every family, for emoji: the colour emoji face is registered under it. */
export const EMOJI_FAMILY = 'Segoe UI Emoji';

/** @fontsource packages of script fallbacks, in fallback order, and the subsets of each that are the script itself (numbers: numbered slices). */
const SCRIPT_PACKAGES: ReadonlyArray<{ name: string; subsets: RegExp; shapedForResvg?: boolean }> = [
  { name: '@fontsource/noto-sans-arabic', subsets: /^arabic$/ },
  { name: '@fontsource/noto-sans-hebrew', subsets: /^hebrew$/ },
  { name: '@fontsource/noto-sans-devanagari', subsets: /^devanagari$/, shapedForResvg: true },
  { name: '@fontsource/noto-sans-thai', subsets: /^thai$/, shapedForResvg: true },
  { name: '@fontsource/noto-sans-kr', subsets: /^\d+$/ },
];

function packageDirectory(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function packageVersion(directory: string): string {
  return (JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The faces of an @fontsource stylesheet: family, subset name, woff2 file, unicode-range. */
function fontsourceFaces(name: string, stylesheet: string, role: BundledRole, subsets: RegExp, shapedForResvg = false): BundledFace[] {
  const directory = packageDirectory(name);
  const version = packageVersion(directory);
  const css = fs.readFileSync(path.join(directory, stylesheet), 'utf8');
  const faces: BundledFace[] = [];
  const prefix = `files/${name.split('/')[1]}-`;
  for (const [, body] of css.matchAll(/@font-face\s*\{([^}]*)\}/g) as Iterable<[string, string]>) {
    const family = /font-family:\s*'([^']+)'/.exec(body)?.[1];
    const file = /url\(\.\/(files\/[^)]+\.woff2)\)/.exec(body)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(body)?.[1];
    const subset = file?.startsWith(prefix) ? file.slice(prefix.length).replace(/-\d+-normal\.woff2$/, '') : undefined;
    if (subset !== undefined && !subsets.test(subset)) continue;
    if (!family || !file) throw new Error(`${name}/${stylesheet}: a @font-face without a family or a woff2 file: has the package's format changed?`);
    faces.push({ family, role, shapedForResvg, woff2: path.join(directory, file), target: path.join('bundled', `${name}@${version}`, file.replace(/\.woff2$/, '.ttf')), ranges: range ? parseUnicodeRange(range) : null });
  }
  if (faces.length === 0) throw new Error(`${name}/${stylesheet}: no font faces found: has the package's format changed?`);
  return faces;
}

function twemoji(): BundledFace {
  const directory = packageDirectory('twemoji-colr-font');
  const version = packageVersion(directory);
  return { family: EMOJI_FAMILY, role: 'colour-emoji', shapedForResvg: true, woff2: path.join(directory, 'twemoji.woff2'), target: path.join('bundled', `twemoji-colr-font@${version}`, 'twemoji.ttf'), ranges: null };
}

let faces: BundledFace[] | undefined;

/** Every bundled face, in fallback order: scripts, then the colour and the monochrome emoji face. */
export function bundledFaces(): readonly BundledFace[] {
  faces ??= [
    ...SCRIPT_PACKAGES.flatMap(({ name, subsets, shapedForResvg }) => fontsourceFaces(name, '400.css', 'script', subsets, shapedForResvg)),
    twemoji(),
    ...fontsourceFaces('@fontsource/noto-emoji', 'emoji-400.css', 'monochrome-emoji', /^emoji$/, true).map((face) => ({ ...face, family: EMOJI_FAMILY })),
  ];
  return faces;
}
