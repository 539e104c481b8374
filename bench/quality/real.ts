/**
 * The real corpus (bench/quality/real/): Mermaid and DOT diagrams copied
 * unchanged from public projects (sources.json names each one's repository,
 * path and licence), read by the service's own importers into specs. The
 * quality benchmark and the gallery draw them as they draw the written corpus.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { readSource } from '../../src/domain/source/read-source.ts';
import type { SourceLanguage } from '../../src/domain/source/schema.ts';
import type { SourceWarning } from '../../src/domain/source/types.ts';

export const REAL_DIRECTORY = path.join(import.meta.dirname, 'real');

export interface RealEntry {
  /** The file name without its extension: `k8s-pod-lifecycle`. */
  name: string;
  file: string;
  language: SourceLanguage;
  text: string;
}

const LANGUAGES: Record<string, SourceLanguage> = { '.mmd': 'mermaid', '.dot': 'dot', '.gv': 'dot' };

export function loadRealCorpus(): RealEntry[] {
  if (!fs.existsSync(REAL_DIRECTORY)) return [];
  return fs
    .readdirSync(REAL_DIRECTORY)
    .filter((f) => LANGUAGES[path.extname(f)] !== undefined)
    .sort()
    .map((f) => {
      const file = path.join(REAL_DIRECTORY, f);
      return { name: f.slice(0, -path.extname(f).length), file, language: LANGUAGES[path.extname(f)]!, text: fs.readFileSync(file, 'utf8') };
    });
}

export interface ImportedEntry {
  spec: unknown;
  warnings: SourceWarning[];
}

/** The entry read as the API reads a source; throws with the first problem when the source is refused. */
export async function importEntry(entry: RealEntry): Promise<ImportedEntry> {
  const reading = await readSource({ language: entry.language, text: entry.text }, { isIcon: isCatalogIcon });
  if (reading.spec === null) throw new Error(`${entry.name}: ${reading.problems[0]?.message ?? 'refused'}`);
  return { spec: reading.spec, warnings: reading.warnings };
}
