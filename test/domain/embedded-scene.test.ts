/**
 * A scene embedded in a PNG or an SVG as the Excalidraw editor embeds it:
 * the editor's own loader (loadFromBlob, run here as the renderer runs the
 * editor) opens what Drawbridge embeds, and Drawbridge reads it back; a file
 * without a scene, or with a broken one, is NOT_A_SCENE.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { embedSceneInPng, embedSceneInSvg, sceneFileJson, sceneOfFile } from '../../src/domain/scene/embedded.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { ApiError } from '../../src/errors.ts';
import { loadExcalidraw } from '../helpers/excalidraw.ts';

/** What a browser gives the editor to read a file with (Node has Blob but no FileReader). */
class BrowserFileReader {
  static readonly DONE = 2;
  readyState = 0;
  result: unknown = null;
  onload: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  readAsText(blob: Blob) {
    void blob.text().then((text) => this.done(text));
  }
  readAsArrayBuffer(blob: Blob) {
    void blob.arrayBuffer().then((bytes) => this.done(bytes));
  }
  private done(result: unknown) {
    this.result = result;
    this.readyState = BrowserFileReader.DONE;
    this.onload?.();
    this.onloadend?.();
  }
}

const elements = sceneFromSpec(parseSpec({ nodes: [{ id: 'api', label: 'Orders API «v2»' }, { id: 'db', shape: 'cylinder' }], edges: ['api -> db : SQL'] }, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
const scene = sceneFileJson(elements, {}, 'https://drawbridge.example', '#ffffff');
const png = PNG.sync.write(new PNG({ width: 8, height: 8 }));
const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8" width="8" height="8"><rect width="8" height="8"/></svg>';
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('a scene embedded in a PNG or an SVG', () => {
  before(() => {
    (globalThis as { FileReader?: unknown }).FileReader ??= BrowserFileReader;
  });

  test('the editor\'s own loader opens the PNG and the SVG Drawbridge embeds a scene in, as the same elements', async () => {
    // The editor's loader, which the renderer's typings leave out.
    const excalidraw = (await loadExcalidraw()) as unknown as { loadFromBlob(blob: Blob, appState: null, elements: null): Promise<{ elements: Array<{ id: string; text?: string }> }> };
    for (const [type, file] of [['image/png', new Uint8Array(embedSceneInPng(png, scene))], ['image/svg+xml', embedSceneInSvg(svg, scene)]] as const) {
      const opened = await excalidraw.loadFromBlob(new Blob([file], { type }), null, null);
      assert.deepEqual(opened.elements.map((e) => e.id), elements.map((e) => e.id), type);
      assert.equal(opened.elements.find((e) => e.id === 'api-label')?.text, 'Orders API «v2»', `${type}: text outside ASCII survives`);
    }
  });

  test('Drawbridge reads back the scene of the PNG (as a data URL) and of the SVG; the PNG is still a PNG, the SVG still an SVG', () => {
    const withScene = embedSceneInPng(png, scene);
    assert.equal(PNG.sync.read(withScene).width, 8, 'the PNG still decodes');
    assert.deepEqual((sceneOfFile(dataUrl(withScene)) as { elements: unknown[] }).elements, JSON.parse(JSON.stringify(elements)));
    const svgWithScene = embedSceneInSvg(svg, scene);
    assert.match(svgWithScene, /^<svg [^>]*><!-- svg-source:excalidraw --><!-- payload-type:application\/vnd\.excalidraw\+json --><!-- payload-version:2 --><!-- payload-start -->[A-Za-z0-9+/=]+<!-- payload-end --><rect/);
    assert.deepEqual((sceneOfFile(`<?xml version="1.0"?>\n${svgWithScene}`) as { elements: unknown[] }).elements, JSON.parse(JSON.stringify(elements)));
  });

  test('a file without a scene, with a broken one, or that is neither an SVG nor a PNG is NOT_A_SCENE, saying what to send', () => {
    const refused = (file: string, message: RegExp) =>
      assert.throws(() => sceneOfFile(file), (error: unknown) => error instanceof ApiError && error.code === 'NOT_A_SCENE' && message.test(error.message));
    refused(dataUrl(png), /^this PNG carries no scene: export it with its scene \(embed=scene/);
    refused(svg, /^this SVG carries no scene/);
    refused('hello', /^a scene given as text must be an SVG, or a PNG as a data:image\/png;base64, URL/);
    refused(embedSceneInSvg(svg, scene).replace(/payload-start -->[A-Za-z0-9]{8}/, 'payload-start -->!!!!!!!!'), /^the SVG carries a scene that cannot be read/);
  });
});
