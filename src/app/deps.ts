import type { Config } from '../config.ts';
import type { Renderer } from '../render/renderer.ts';
import type { Store, UserRecord, Via } from '../store/store.ts';
import type { SceneJob, SceneOutput } from '../workers/scene-worker.ts';
import type { Mailer } from '../mail/message.ts';
import type { PreparedReads } from './diagrams/prepared-reads.ts';

/** What every use case may use: the settings, the store and the clock (tests pass their own). */
export interface AppDeps {
  config: Config;
  store: Store;
  now: () => Date;
}

/** What use cases that need no settings take: the store and the clock (the admin CLI has no server settings). */
export type StoreDeps = Pick<AppDeps, 'store' | 'now'>;

/** Work whose cost grows with a scene or spec (generating, linting, patching, validating, diffing), done off the event loop. */
export interface SceneWorkers {
  /** `caller` (user:<id>) gets a fair share of the workers: their jobs past it wait behind their own. */
  run(job: SceneJob, caller?: string): Promise<SceneOutput>;
}

/** The use cases' dependencies plus the services the composition root starts: scene workers, the renderer and the mail. */
export interface ServiceDeps extends AppDeps {
  scenes: SceneWorkers;
  renderer: Renderer;
  mailer: Mailer;
  /** Diagram read answers prepared once per revision. */
  reads: PreparedReads;
}

/**
 * Who is asking: a person signed in to the web app, or the owner of an API
 * token. Only the user matters to access; what a token may do (its
 * capabilities) is checked by the API before any use case runs.
 */
export interface Caller {
  user: UserRecord;
  /** How the caller reached the service, for the history of what they change; absent: the web app. */
  via?: Via;
}

/** The web app's way in: a person signed in, working in the editor or the dashboard. */
const WEB_VIA: Via = { kind: 'web', name: 'web editor' };

/** How the caller reached the service. */
export const viaOf = (caller: Caller): Via => caller.via ?? WEB_VIA;
