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
}

/**
 * Values are spread evenly across the width in order (readings come one per
 * period); a flat series is drawn through the middle. Non-finite values break
 * the line rather than dragging it to zero.
 */
export function linePlot(values: readonly number[], box: PlotBox): LinePlot {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { path: "", min: NaN, max: NaN, last: null };
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
  const parts: string[] = [];
  let penDown = false;
  let last: LinePlot["last"] = null;
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) {
      penDown = false;
      return;
    }
    const px = round(x(i));
    const py = round(y(v));
    parts.push(`${penDown ? "L" : "M"}${px},${py}`);
    penDown = true;
    last = { x: px, y: py };
  });
  return { path: parts.join(" "), min, max, last };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
