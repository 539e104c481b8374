/** A folder as the API lists it. */
export interface FolderEntry {
  id: string;
  name: string;
  parentId: string | null;
}

/** Why a folder reference names no single folder; the message lists what it could have meant. */
export class FolderReferenceError extends Error {
  readonly kind: 'not_found' | 'ambiguous';
  constructor(kind: 'not_found' | 'ambiguous', message: string) {
    super(message);
    this.kind = kind;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The words that name the top level (no folder) wherever a folder may be the root. */
export const ROOT_WORDS = ['root', 'none'] as const;

export const isFolderId = (ref: string) => UUID.test(ref);

/** Each folder's path from the top, `Parent/Child`, by id. A parent the caller cannot see ends the path. */
export function folderPaths(folders: readonly FolderEntry[]): Map<string, string> {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const paths = new Map<string, string>();
  const pathOf = (folder: FolderEntry, seen: Set<string>): string => {
    const known = paths.get(folder.id);
    if (known !== undefined) return known;
    const parent = folder.parentId ? byId.get(folder.parentId) : undefined;
    const path = parent && !seen.has(parent.id) ? `${pathOf(parent, seen.add(folder.id))}/${folder.name}` : folder.name;
    paths.set(folder.id, path);
    return path;
  };
  for (const folder of folders) pathOf(folder, new Set());
  return paths;
}

/**
 * The folder `ref` names among `folders`: a UUID is taken as it is (the
 * server judges it); otherwise the folders whose name, or whose whole path
 * (`Parent/Child`), is exactly `ref`. None is an error listing the close
 * names; several (one name under different parents) are refused with each
 * candidate's path and id, since guessing would move a diagram to the wrong place.
 */
export function resolveFolderReference(ref: string, folders: readonly FolderEntry[]): string {
  if (isFolderId(ref)) return ref;
  const paths = folderPaths(folders);
  const matches = folders.filter((f) => f.name === ref || paths.get(f.id) === ref);
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    const candidates = matches.map((f) => `  ${paths.get(f.id)}  ${f.id}`).join('\n');
    throw new FolderReferenceError('ambiguous', `"${ref}" names ${matches.length} folders; give the path or the id of one:\n${candidates}`);
  }
  const close = closeNames(ref, [...new Set(paths.values())]);
  const hint = close.length > 0 ? ` Did you mean ${close.map((n) => `"${n}"`).join(', ')}?` : folders.length === 0 ? ' You have no folders.' : ' List them with `drawbridge folders list`.';
  throw new FolderReferenceError('not_found', `no folder named "${ref}".${hint}`);
}

/** Names that differ from `ref` by case, contain it, or are a couple of edits away; closest first. */
function closeNames(ref: string, names: string[]): string[] {
  const wanted = ref.toLowerCase();
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const leaf = lower.slice(lower.lastIndexOf('/') + 1);
      const distance = Math.min(editDistance(wanted, lower), editDistance(wanted, leaf));
      const contains = lower.includes(wanted);
      return { name, score: distance <= Math.max(2, Math.floor(wanted.length / 4)) ? distance : contains ? 3 + distance / 100 : Infinity };
    })
    .filter((c) => c.score !== Infinity)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map((c) => c.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
