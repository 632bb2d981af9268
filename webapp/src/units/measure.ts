/**
 * The organization's display units for the web app: the conversions and labels live in
 * display/units.ts, shared with the 3D viewer and the PDF (1 in = 2.54 cm, 1 lb = 0.45359237 kg).
 */
export * from '../../../display/units.js';
