/**
 * A simple SVG bar chart with a table alternative: the SVG is hidden from
 * screen readers (aria-hidden) and the same figures are given in a table, visually folded in a
 * "Show as table" disclosure.
 */
import { layoutBars, type BarDatum } from '../console/bar-chart.js';

/** Draws `data` under the heading `title`; `unit` is appended to figures ("credits"); `format` writes a value. */
export function BarChart({
  title,
  data,
  unit,
  format = (v) => String(v),
}: {
  title: string;
  data: readonly BarDatum[];
  unit: string;
  format?: (v: number) => string;
}) {
  const W = 640;
  const H = 180;
  const left = 48;
  const top = 10;
  const plotW = W - left - 10;
  const plotH = H - top - 34;
  const { bars, max, baseline } = layoutBars(data, plotW, plotH, left, top);
  const every = Math.max(1, Math.ceil(data.length / 10));
  return (
    <figure className="bar-chart">
      <figcaption>
        <strong>{title}</strong> ({unit})
      </figcaption>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} width={W} height={H} aria-hidden="true" focusable="false">
        <line className="axis" x1={left} x2={left + plotW} y1={baseline} y2={baseline} />
        <text x={left - 6} y={top + 10} textAnchor="end">
          {format(max)}
        </text>
        <text x={left - 6} y={baseline} textAnchor="end">
          0
        </text>
        {bars.map((b, i) => (
          <g key={i}>
            <rect className="bar" x={b.x} y={b.y} width={b.width} height={Math.max(b.height, 0)}>
              <title>{`${b.label}: ${format(b.value)} ${unit}`}</title>
            </rect>
            {i % every === 0 ? (
              <text x={b.x + b.width / 2} y={baseline + 14} textAnchor="middle">
                {b.label.length > 5 && /^\d{4}-/.test(b.label) ? b.label.slice(5) : b.label}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <details className="table-alternative">
        <summary>Show “{title}” as a table</summary>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{/^\d{4}-/.test(data[0]?.label ?? '') ? 'Day' : 'Component'}</th>
              <th scope="col" className="num">
                {unit}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.label}>
                <th scope="row">{d.label}</th>
                <td className="num">{format(d.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
