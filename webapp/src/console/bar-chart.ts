/**
 * The geometry of a simple vertical bar chart (usage by day and by
 * component as SVG bars). Pure; tested in test/webapp/bar-chart.test.ts.
 */

/** One bar to draw: its label and value (any unit, ≥ 0). */
export interface BarDatum {
  label: string;
  value: number;
}

/** A placed bar in SVG user units (y grows downward; the baseline is at `baseline`). */
export interface PlacedBar extends BarDatum {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The chart's bars and scale: `max` is the value of the full plot height (at least 1 so all-zero data draws flat). */
export interface BarLayout {
  bars: PlacedBar[];
  max: number;
  baseline: number;
}

/**
 * Places `data` in a `width` × `height` plot starting at (`left`, `top`): equal slots, each bar
 * 80 % of its slot wide, heights proportional to value / max (negatives and NaN drawn as 0).
 */
export function layoutBars(data: readonly BarDatum[], width: number, height: number, left = 0, top = 0): BarLayout {
  const values = data.map((d) => (Number.isFinite(d.value) && d.value > 0 ? d.value : 0));
  const max = Math.max(1e-9, ...values) === 1e-9 ? 1 : Math.max(...values);
  const slot = data.length ? width / data.length : width;
  const baseline = top + height;
  const bars = data.map((d, i) => {
    const h = (values[i]! / max) * height;
    return { ...d, x: left + i * slot + slot * 0.1, y: baseline - h, width: slot * 0.8, height: h };
  });
  return { bars, max, baseline };
}
