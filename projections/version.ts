/**
 * The shape of the read models a persisted read store holds (adapters/sqlite/read-store.ts).
 * Change it whenever a projection writes other documents for the same events (a new field, a
 * changed meaning, a new collection): a store holding another version is emptied at start and
 * rebuilt from the event log. test/projections/version.test.ts fails when the projections'
 * sources change and this version does not (its fixture records both).
 */
export const READ_MODEL_VERSION = '2026-11-26.2';
