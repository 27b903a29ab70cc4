/**
 * SVG path data for the pane's line charts (preview and insight sparklines).
 * A hand-drawn path is all a 300-pixel chart needs; a chart library would
 * multiply the pane's bundle for no gain.
 */
export interface PlotBox {
  width: number;
  height: number;
  /** Inset on every side so the stroke is not clipped at the extremes. */
  padding: number;
}

export interface LinePlot {
  /** "M x,y L x,y ..."; empty when there is nothing to draw. */
  path: string;
  min: number;
  max: number;
  /** Coordinates of the last drawn point, for an end marker. */
  last: { x: number; y: number } | null;
  /** Each value's point (null where the value is not finite), for drawing part of the line. */
  points: ({ x: number; y: number } | null)[];
}

/**
 * Values are spread evenly across the width in order (readings come one per
 * period); a flat series is drawn through the middle. Non-finite values break
 * the line rather than dragging it to zero.
 */
export function linePlot(values: readonly number[], box: PlotBox): LinePlot {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { path: "", min: NaN, max: NaN, last: null, points: values.map(() => null) };
  let min = Infinity;
  let max = -Infinity;
  for (const v of finite) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const innerW = box.width - 2 * box.padding;
  const innerH = box.height - 2 * box.padding;
  const span = max - min;
  const step = values.length > 1 ? innerW / (values.length - 1) : 0;
  const x = (i: number) => box.padding + (values.length > 1 ? i * step : innerW / 2);
  const y = (v: number) => box.padding + (span === 0 ? innerH / 2 : innerH - ((v - min) / span) * innerH);
  const points = values.map((v, i) => (Number.isFinite(v) ? { x: round(x(i)), y: round(y(v)) } : null));
  const drawn = points.filter((p) => p !== null);
  return { path: pathThrough(points), min, max, last: drawn[drawn.length - 1] ?? null, points };
}

/** The path through points `from` to `to` (exclusive) of a plot, scaled as the whole line is. */
export function segmentPath(plot: LinePlot, from: number, to = plot.points.length): string {
  return pathThrough(plot.points.slice(Math.max(0, from), to));
}

function pathThrough(points: readonly ({ x: number; y: number } | null)[]): string {
  const parts: string[] = [];
  let penDown = false;
  for (const point of points) {
    if (!point) {
      penDown = false;
      continue;
    }
    parts.push(`${penDown ? "L" : "M"}${point.x},${point.y}`);
    penDown = true;
  }
  return parts.join(" ");
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
