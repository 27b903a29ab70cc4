/** A small line chart: the preview's series and each insight card's sparkline. */
import { tokens } from "@fluentui/react-components";
import { linePlot, segmentPath } from "./line-path";

export interface LineChartProps {
  values: readonly number[];
  width: number;
  height: number;
  /** What a screen reader hears; the chart itself is one image. */
  label: string;
  color?: string;
  /** Faint top and bottom guides (the preview), or just the line (sparklines). */
  guides?: boolean;
  testId?: string;
  /**
   * The index from which the line is the point of the chart (an insight's
   * streak): the points before it (the lead-in) are drawn thin, dashed and
   * muted, the rest in `color`. Absent or 0: one line.
   */
  emphasisFrom?: number;
}

export function LineChart({
  values,
  width,
  height,
  label,
  color = tokens.colorBrandForeground1,
  guides,
  testId,
  emphasisFrom = 0,
}: LineChartProps) {
  const padding = 3;
  const plot = linePlot(values, { width, height, padding });
  const from = Math.min(Math.max(0, emphasisFrom), values.length - 1);
  // The lead-in runs up to the first emphasised point, so the two parts join.
  const leadIn = from > 0 ? segmentPath(plot, 0, from + 1) : "";
  const line = from > 0 ? segmentPath(plot, from) : plot.path;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid={testId}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      preserveAspectRatio="none"
      style={{ display: "block", overflow: "visible" }}
    >
      {guides && (
        <>
          <line
            x1={0}
            x2={width}
            y1={padding}
            y2={padding}
            stroke={tokens.colorNeutralStroke2}
            strokeDasharray="2 3"
            vectorEffect="non-scaling-stroke"
          />
          <line
            x1={0}
            x2={width}
            y1={height - padding}
            y2={height - padding}
            stroke={tokens.colorNeutralStroke2}
            strokeDasharray="2 3"
            vectorEffect="non-scaling-stroke"
          />
        </>
      )}
      {leadIn && (
        <path
          d={leadIn}
          fill="none"
          stroke={tokens.colorNeutralForeground3}
          strokeWidth={1}
          strokeDasharray="3 2"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
          data-part="lead-in"
        />
      )}
      {line && (
        <path
          d={line}
          data-part={leadIn ? "emphasis" : "line"}
          fill="none"
          stroke={color}
          strokeWidth={leadIn ? 2.25 : 1.75}
          strokeLinejoin="round"
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      )}
      {plot.last && <circle cx={plot.last.x} cy={plot.last.y} r={2.5} fill={color} />}
    </svg>
  );
}
