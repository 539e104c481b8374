/**
 * The form in which titles are searched: what `titleContains` matches against,
 * kept beside each title (column `title_key`) and computed here, in the
 * server, so that both engines compare the same strings. SQLite's lower()
 * folds ASCII letters only and PostgreSQL's follows the database's locale;
 * neither would do for a search that must answer alike everywhere.
 *
 * Compatibility normalisation (NFKC: `ﬁ` is `fi`, a full-width `Ａ` is `A`,
 * a composed `é` equals `e` + combining accent), then full case mapping
 * through upper case and back, which, unlike lower case alone, also makes
 * `ß` and `SS` (both `ss`) or `ς` and `Σ` (both `σ`) equal; locale-free, so
 * `I` is always `i`.
 */
export function titleSearchKey(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
