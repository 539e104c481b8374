// Whether a test file has a hook outside every describe (`before(…)` at the start of a line): such a hook
// belongs to its process's root, so in a process shared with other files it would be every file's hook.
// scripts/test.mjs keeps such a file in a process of its own; scripts/shared-process-tests.mjs refuses one.
import fs from 'node:fs';

export function hasRootHook(file) {
  return /^(before|after|beforeEach|afterEach)\(/m.test(fs.readFileSync(file, 'utf8'));
}
