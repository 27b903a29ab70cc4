/** A small line chart: the preview's series and each insight card's sparkline. */
import { tokens } from "@fluentui/react-components";
import { linePlot } from "./line-path";

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
}

export function LineChart({
  values,
  width,
  height,
  label,
  color = tokens.colorBrandForeground1,
  guides,
  testId,
}: LineChartProps) {
  const padding = 3;
  const plot = linePlot(values, { width, height, padding });
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
      {plot.path && (
        <path
          d={plot.path}
          fill="none"
          stroke={color}
          strokeWidth={1.75}
          strokeLinejoin="round"
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
        />
      )}
      {plot.last && <circle cx={plot.last.x} cy={plot.last.y} r={2.5} fill={color} />}
    </svg>
  );
}
