import { useEffect, useRef, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** Points run to thousands where counts run to tens: they get the right-hand axis. */
  rightAxis?: boolean;
}

const HEIGHT = 260;

/**
 * Figures per day as lines (uPlot on a canvas). The canvas is an image named by
 * `label`; the page shows the same figures in a table for screen readers.
 * uPlot is imported when drawn: as it loads it formats numbers in navigator.language, which
 * throws where that is no language tag Intl accepts (Chromium's `en-US@posix` under a POSIX
 * LANG). There the chart alone is left out and the page, its table included, still works.
 */
export function Chart({ label, days, series }: { label: string; days: string[]; series: ChartSeries[] }) {
  const container = useRef<HTMLDivElement>(null);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let current = true;
    let undraw: (() => void) | undefined;
    import('uplot')
      .then(({ default: uPlot }) => {
        if (!current) return;
        const times = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
        const plot = new uPlot(
          {
            width: element.clientWidth,
            height: HEIGHT,
            legend: { show: false },
            cursor: { y: false },
            tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
            scales: { x: { time: true } },
            axes: [
              {},
              { label: 'Count', scale: 'count' },
              ...(series.some((line) => line.rightAxis)
                ? [{ label: 'Points', scale: 'points', side: 1, grid: { show: false } }]
                : []),
            ],
            series: [
              {},
              ...series.map((line) => ({
                label: line.label,
                stroke: line.color,
                width: 2,
                scale: line.rightAxis ? 'points' : 'count',
                points: { show: days.length < 40 },
              })),
            ],
          },
          [times, ...series.map((line) => line.values)],
          element,
        );
        const canvas = element.querySelector('canvas');
        canvas?.setAttribute('role', 'img');
        canvas?.setAttribute('aria-label', label);
        const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
        resize.observe(element);
        undraw = () => {
          resize.disconnect();
          plot.destroy();
        };
      })
      .catch(() => current && setUnavailable(true));
    return () => {
      current = false;
      undraw?.();
    };
  }, [label, days, series]);
  if (unavailable) return <p class="chart hint">Chart unavailable in this browser: the table has the same figures.</p>;
  return (
    <figure class="chart">
      <div ref={container} />
      <figcaption>
        <ul class="legend">
          {series.map((line) => (
            <li key={line.label}>
              <span class="swatch" style={{ background: line.color }} aria-hidden="true" />
              {line.label}
              {line.rightAxis ? ' (right axis)' : ''}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
