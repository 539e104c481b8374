/** The distances (px, scene units) the layout-quality lint kinds are defined by; docs/api.md states each one. */

/** An arrow closer than this to a shape's outline reads as touching or passing through it. */
export const SHAPE_CLEARANCE = 10;
/** Lines this close and (nearly) parallel read as one line. */
export const COLLINEAR_TOLERANCE = 4;
/** A shared collinear run longer than this reads as two arrows on one line. */
export const MAX_SHARED_RUN = 10;
/** Arrows that share an endpoint may run together this close to it (they merge as they arrive). */
export const SHARED_END_MERGE = 24;
/** Directions at most this far apart (sine of the angle, about 5.7°) count as parallel. */
export const PARALLEL_SINE = 0.1;
/** The visible arrow an arrow label must leave on each side of it. */
export const MIN_VISIBLE_ARROW = 16;
/** An arrow label farther than this from its arrow no longer reads as naming it. */
export const MAX_LABEL_DISTANCE = 12;
/** Overlaps and crossings shallower than this are rounding, not something a person sees. */
export const TOUCH_SLACK = 1;
/** At most this many issues of one kind are listed: enough to act on, never a flood. */
export const MAX_ISSUES_PER_KIND = 100;
/** Arrows closer than this, side by side, are too close to tell apart... */
export const CLOSE_EDGE_DISTANCE = 16;
/** ...over a stretch longer than this. */
export const MAX_CLOSE_RUN = 30;
/** Directions at most this far apart (sine of the angle, about 11.5°) run side by side. */
export const CLOSE_PARALLEL_SINE = 0.2;
/** Arrowheads on one side of a shape whose tips are closer than this read as one. */
export const MIN_ARROWHEAD_GAP = 16;
/** An arrowhead drawn shorter than this share of its kind's full size reads as a stub, not a head. */
export const MIN_ARROWHEAD_SHARE = 0.5;
/** A container larger than this many times the room its contents need is mostly empty. */
export const MAX_CONTAINER_SLACK = 2.5;
/** A self-loop reaching less than this out of its shape is hard to see. */
export const MIN_LOOP_REACH = 24;
/** A bound label closer than this to its shape's outline looks cramped. */
export const MIN_LABEL_MARGIN = 6;
/** The first source the author wrote should start within this share of the drawing along the flow. */
export const FLOW_START_SHARE = 0.25;
