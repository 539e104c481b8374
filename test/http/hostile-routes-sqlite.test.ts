// Hostile requests at every route, on SQLite (the probe is in hostile-routes.ts).
import { describeHostileRoutes } from './hostile-routes.ts';

describeHostileRoutes('sqlite', false);
