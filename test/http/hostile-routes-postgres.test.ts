// Hostile requests at every route, on PostgreSQL (the probe is in hostile-routes.ts).
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { describeHostileRoutes } from './hostile-routes.ts';

describeHostileRoutes('postgres', skipWithoutPostgres);
