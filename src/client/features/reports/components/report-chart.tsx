import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import { REPORTS, type ReportId, type ReportTable } from '../../../../shared/reports.ts';

// Loaded only by the admin's reports screen (React.lazy in report-section.tsx): Chart.js stays out of
// the member and landing bundles. Only the parts drawn here are registered, so the rest is left out.
Chart.register(
  BarController,
  LineController,
  BarElement,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#4b5563'];

/** Money is plotted in integer cents (never a float) and labelled in dollars. */
const centsOf = (value: string | number | undefined) => {
  if (typeof value === 'number') return value;
  const text = value ?? '0';
  const cents = parseCents(text.replace(/^-/, '')) ?? 0;
  return text.startsWith('-') ? -cents : cents;
};

function configOf(id: ReportId, table: ReportTable): ChartConfiguration {
  const columns = REPORTS[id].columns.filter((c) => c.chart);
  const money = columns.every((c) => c.unit === 'money');
  const line = id === 'income_vs_deposits';
  const stacked = id === 'deposits' || id === 'income';
  const label = (value: number) => (money ? formatUsd(Math.round(value)) : String(value));
  return {
    type: line ? 'line' : 'bar',
    data: {
      labels: table.rows.map((r) => String(r.bucket)),
      datasets: columns.map((c, i) => ({
        label: c.label,
        data: table.rows.map((r) => centsOf(r[c.key])),
        backgroundColor: COLORS[i % COLORS.length],
        borderColor: COLORS[i % COLORS.length],
        pointRadius: table.rows.length > 60 ? 0 : 2,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { stacked },
        y: { stacked, beginAtZero: true, ticks: { callback: (value) => label(Number(value)), precision: 0 } },
      },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${label(Number(item.raw))}` } },
      },
    },
  };
}

/** The chart of one report; the table beside it carries the same figures for screen readers. */
export default function ReportChart({
  id,
  table,
  label,
}: {
  id: ReportId;
  table: ReportTable;
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, configOf(id, table));
    return () => chart.destroy();
  }, [id, table]);
  return (
    <div className="report-chart">
      <canvas ref={canvas} role="img" aria-label={label} data-testid={`report-chart-${id}`}>
        {label}
      </canvas>
    </div>
  );
}
