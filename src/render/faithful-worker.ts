/**
 * A render worker process: loads the editor's bundle once (about 1.5 s), then
 * renders jobs one at a time. Started by the API's faithful render pool; the
 * fonts directory comes from the environment the pool passes on.
 */
import { serveProcessWorker } from '../workers/pool.ts';
import { loadExcalidraw } from './editor-runtime.ts';
import { renderFaithful } from './faithful.ts';
import { EditorFontFiles } from './font-files.ts';
import type { RenderJob, RenderOutput } from './types.ts';

const fontsDirectory = process.env.DRAWBRIDGE_RENDER_FONTS_DIR;
if (!fontsDirectory) throw new Error('DRAWBRIDGE_RENDER_FONTS_DIR is not set');
const fonts = new EditorFontFiles(fontsDirectory);
const editor = loadExcalidraw();

serveProcessWorker<RenderJob, RenderOutput>(async (job) => renderFaithful(await editor, fonts, job));
