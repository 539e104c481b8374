/**
 * What `node` needs to run a TypeScript file: nothing on a Node that strips
 * types itself (22.18 and later, `process.features.typescript`), the tsx
 * loader on an older one.
 */
export const TYPESCRIPT_ARGS: string[] = (process.features as { typescript?: string }).typescript ? [] : ['--import', 'tsx'];
