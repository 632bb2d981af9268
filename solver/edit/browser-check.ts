/**
 * The plan editor's check as one entry point for a browser bundle: what the viewer's edit mode
 * runs (checkLayout, applyOperations, layoutOf), gathered so a test can bundle exactly this for
 * the browser and compare its answers with the server's (test/browser/verifier-agreement.test.ts).
 */
export { checkLayout } from './plan-check.js';
export { applyOperations, operationOf } from './operations.js';
export { layoutOf, planFromLayout } from './layout.js';
