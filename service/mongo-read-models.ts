/**
 * Versioned read models on MongoDB (distributed profile), with the semantics of the SQLite
 * ones (projections/version.ts): read models of another READ_MODEL_VERSION are never served
 * as if they were current; they are rebuilt from the whole event log. The API processes must
 * keep answering meanwhile, so a rebuild writes a FRESH generation of collections beside the
 * served one and then switches the stamp (adapters/mongodb/generations.ts) in one update:
 *
 * - the projector (`MongoProjector`, role `projector`) builds at start when the stamp names
 *   another version (or none), switches, and later follows a switch made by another builder
 *   (`admin rebuild-read-models`) by restarting its projections on the new generation;
 * - the other processes (`followGenerations`) move their read store to the new generation as
 *   soon as they read a stamp of their own version; a stamp of another version (a newer
 *   deployment's projector) is logged and they keep serving the generation they have;
 * - the replaced generation is kept `retireAfterMs` for processes still running older code,
 *   then dropped by the projector (at its next start at the latest).
 */
export {
  DEFAULT_RETIRE_AFTER_MS,
  DEFAULT_STAMP_POLL_MS,
  type GenerationOptions,
} from './mongo-read-models/generation-stamp.js';
export { followGenerations } from './mongo-read-models/follow-generations.js';
export { MongoProjector } from './mongo-read-models/projector.js';
export { rebuildMongoReadModels, type MongoRebuildReport } from './mongo-read-models/rebuild.js';
