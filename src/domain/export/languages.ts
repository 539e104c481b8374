/** The languages a diagram exports as: the spec it draws (JSON), Mermaid flowchart text, Graphviz DOT. */
export const EXPORT_LANGUAGES = ['spec', 'mermaid', 'dot'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];
