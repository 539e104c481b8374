/**
 * Icon search: which catalog icons a query finds, best first. Pure (no file
 * access), so the web picker ranks with the same code as the API.
 *
 * A query's words must each appear somewhere in the icon's id, label,
 * category, subcategory or aliases (ignoring case). Among the matches:
 *   0. the id itself (`s3` is not an id, `icon-aws-lambda` and `aws-lambda` are);
 *   1. an alias or the label equal to the query (`s3`, `aks`, `pod`, `Ingress`), also after the
 *      name of the icon's own set (`aws s3`, `azure aks`, `gcp pub sub`, `k8s svc`);
 *   2. the query as whole words of the label, an alias or the id (`lambda` in "AWS Lambda");
 *   3. every word the start of a word;
 *   4. the rest (words inside other words).
 * Ties go to the shorter label (the service before its resources), then the id.
 */

export interface SearchableIcon {
  id: string;
  label: string;
  category: string;
  subcategory?: string;
  aliases?: readonly string[];
}

/** The words that name a cloud or platform set, by category. */
const SET_WORDS: Record<string, readonly string[]> = {
  aws: ['aws', 'amazon'],
  azure: ['azure', 'microsoft'],
  'google-cloud': ['gcp', 'google', 'google cloud'],
  kubernetes: ['k8s', 'kubernetes', 'kube'],
};

const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9/]+/).filter(Boolean);
const hasRun = (haystack: readonly string[], run: readonly string[]) =>
  haystack.some((_, start) => run.every((word, i) => haystack[start + i] === word));

function rank(icon: SearchableIcon, phrase: string, words: readonly string[]): number | undefined {
  const aliases = (icon.aliases ?? []).map((alias) => alias.toLowerCase());
  const fields = [icon.id, icon.label.toLowerCase(), icon.category, (icon.subcategory ?? '').toLowerCase(), ...aliases];
  if (!words.every((word) => fields.some((field) => field.includes(word)))) return undefined;
  const name = icon.id.replace(/^icon-/, '');
  if (icon.id === phrase || name === words.join('-')) return 0;
  const label = icon.label.toLowerCase();
  if (label === phrase || aliases.includes(phrase)) return 1;
  const setWord = (SET_WORDS[icon.category] ?? []).find((word) => phrase.startsWith(`${word} `));
  const rest = setWord === undefined ? '' : phrase.slice(setWord.length + 1);
  if (rest !== '' && (label === rest || aliases.includes(rest) || name === `${name.split('-')[0]}-${rest.replace(/ /g, '-')}`)) return 1;
  const fieldWords = [wordsOf(icon.label), ...aliases.map(wordsOf), name.split('-')];
  if (fieldWords.some((field) => hasRun(field, words))) return 2;
  const allWords = [...fieldWords.flat(), ...wordsOf(icon.category), ...wordsOf(icon.subcategory ?? '')];
  if (words.every((word) => allWords.some((w) => w.startsWith(word)))) return 3;
  return 4;
}

/** The icons `q` finds, best first; all of them, in their own order, for a blank query. */
export function searchIcons<T extends SearchableIcon>(icons: readonly T[], q: string | undefined): T[] {
  const phrase = (q ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (phrase === '') return [...icons];
  const words = phrase.split(/[\s-]+/).filter(Boolean);
  return icons
    .map((icon) => ({ icon, rank: rank(icon, phrase, words) }))
    .filter((entry): entry is { icon: T; rank: number } => entry.rank !== undefined)
    .sort((a, b) => a.rank - b.rank || a.icon.label.length - b.icon.label.length || (a.icon.id < b.icon.id ? -1 : a.icon.id > b.icon.id ? 1 : 0))
    .map((entry) => entry.icon);
}
