/**
 * The content schemas the server validates with, which the tools advertise
 * as the JSON Schema of their content arguments (src/mcp/tool-input.ts).
 */
export { AnySpec } from '../domain/spec/any-spec.ts';
export { EditFragment } from '../domain/edit/schema.ts';
export { PatchOps } from '../domain/patch/schema.ts';
export { Scene } from '../domain/scene/schema.ts';
