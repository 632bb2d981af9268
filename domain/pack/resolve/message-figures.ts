/**
 * How sizes read in the messages of problem details: cm rounded to 3 decimals, no trailing zeros.
 */
import type { BoxSize } from './orientations.js';

/** `n` cm as written in a message, without the unit: 12.5, 0.333. */
export const cm = (n: number): string => `${Number(n.toFixed(3))}`;

/** A box size as written in a message: `120 × 80 × 100 cm` (length × width × height). */
export const dims = (s: BoxSize): string => `${cm(s.length)} × ${cm(s.width)} × ${cm(s.height)} cm`;
