// Small hand-drawn canvas charts: LineChart (training curves, live),
// Histogram (overlaid distributions), and their pure helpers.

export { LineChart, type LineChartOptions } from "./line-chart";
export { Histogram, type HistogramGroup, type HistogramOptions } from "./histogram-chart";
export { ReliabilityChart, calibrationText, reliabilityLayout, type ReliabilityBinData, type ReliabilityLayout, type ReliabilityOptions } from "./reliability-chart";
export { defaultScheduler, type ChartFrame, type ChartHostOptions, type Rect, type Scheduler } from "./base";
export {
  extent,
  formatNumber,
  histogram,
  linearScale,
  niceStep,
  niceTicks,
  stats,
  summarize,
  summarizeGroups,
  tickFormatter,
  type Series,
} from "./scale";
