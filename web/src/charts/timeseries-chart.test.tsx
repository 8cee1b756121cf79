import { describe, expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { dateTicks, TimeseriesChart, yScale } from './timeseries-chart.js';

const days = (counts: number[]) => counts.map((clicks, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, clicks, uniqueClicks: Math.floor(clicks / 2) }));

describe('the daily chart', () => {
  test('the y axis steps by 1, 2 or 5 times a power of ten, at most four steps up to a top at or above the most clicks', () => {
    expect(yScale(0)).toEqual({ step: 1, top: 1 });
    expect(yScale(3)).toEqual({ step: 1, top: 3 });
    expect(yScale(7)).toEqual({ step: 2, top: 8 });
    expect(yScale(45)).toEqual({ step: 20, top: 60 });
    expect(yScale(1000)).toEqual({ step: 500, top: 1000 });
    expect(yScale(1001)).toEqual({ step: 500, top: 1500 });
  });

  test('names the first and last days and at most five in all', () => {
    expect(dateTicks(0)).toEqual([]);
    expect(dateTicks(1)).toEqual([0]);
    expect(dateTicks(3)).toEqual([0, 1, 2]);
    expect(dateTicks(30)).toEqual([0, 7, 15, 22, 29]);
    expect(dateTicks(365)).toHaveLength(5);
  });

  test('is one labelled image whose lines span the days, and names a day’s figures where the pointer is', () => {
    const { container } = render(<TimeseriesChart points={days([0, 4, 1])} label="Clicks per day: 5 in all" />);
    const chart = screen.getByRole('img', { name: 'Clicks per day: 5 in all' });
    expect(chart.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 2 100');
    expect(container.querySelector('.chart-clicks')?.getAttribute('d')).toBe('M0 100.00L1 0.00L2 75.00');
    expect(container.querySelector('.chart-unique')?.getAttribute('d')).toBe('M0 100.00L1 50.00L2 100.00');
    expect([...container.querySelectorAll('.chart-y span')].map((s) => s.textContent)).toEqual(['0', '1', '2', '3', '4']);
    const plot = container.querySelector('.chart-plot')!;
    plot.getBoundingClientRect = () => ({ left: 0, width: 200, top: 0, height: 240, right: 200, bottom: 240, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.pointerMove(plot, { clientX: 110 });
    expect(container.querySelector('.chart-legend')?.textContent).toMatch(/Clicks 4.*Unique 2/);
    fireEvent.pointerLeave(plot);
    expect(container.querySelector('.chart-legend')?.textContent).not.toMatch(/\d/);
  });

  test('a single day is a dot in the middle', () => {
    const { container } = render(<TimeseriesChart points={days([2])} label="one day" />);
    expect(container.querySelector('.chart-clicks')?.getAttribute('d')).toBe('M0.5 0.00h0');
  });
});
